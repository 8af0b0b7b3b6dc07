import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../model/config.ts';
import { CONSISID_TINY_CONFIG } from '../../model/demo-checkpoints.ts';
import type { CheckpointInfo } from './checkpoint.ts';
import { initialPreviewState, isBusy, previewReducer, type PreviewAction, type PreviewState } from './preview-state.ts';
import type { RunRequest, RunResult } from './protocol.ts';
import { defaultSpec } from './inputs.ts';

const info: CheckpointInfo = {
  ref: { hubUrl: 'http://h', token: null, repoId: 'a/b', subfolder: 'transformer', revision: 'main' },
  rawConfig: {},
  config: parseConfig(CONSISID_TINY_CONFIG),
  files: [
    {
      name: 'w.safetensors',
      header: { file: 'w', metadata: {}, tensors: new Map(), dataStart: 8 },
      url: 'http://h/w',
      size: 10,
      etag: null,
      tensors: 1,
      params: 2,
      dtypes: { F32: 2 },
      cached: false,
      storedBytes: 0,
    },
  ],
  weights: new Map(),
  params: 2,
  dtypes: { F32: 2 },
  downloadBytes: 10,
  missingBytes: 10,
};
const request: RunRequest = {
  spec: defaultSpec(parseConfig(CONSISID_TINY_CONFIG)),
  mode: 'forward',
  steps: 1,
  guidance: 1,
  uploads: {},
  compare: false,
};
const result: RunResult = {
  shape: [1],
  sample: new Float32Array(1),
  timings: { loadMs: 1, graphBuildMs: [], sessionCreateMs: [], forwardMs: [1], rotaryMs: 0 },
  provider: 'wasm',
  weights: 'float32',
};
const reduce = (actions: PreviewAction[], from: PreviewState = initialPreviewState) =>
  actions.reduce(previewReducer, from);

describe('preview state', () => {
  it('goes inspect -> download -> load -> run -> done, busy in between', () => {
    const seen: string[] = [];
    let s = initialPreviewState;
    for (const a of [
      { type: 'inspect' },
      { type: 'inspected', info },
      { type: 'download', progress: null },
      { type: 'downloaded' },
      { type: 'load' },
      { type: 'loaded', device: 'wasm' },
      { type: 'run', request },
      { type: 'stage', stage: 'forward pass' },
      { type: 'done', result },
    ] as PreviewAction[]) {
      s = previewReducer(s, a);
      seen.push(`${s.phase.kind}${isBusy(s.phase) ? '*' : ''}`);
    }
    expect(seen).toEqual([
      'inspecting*',
      'idle',
      'loading*',
      'loading*',
      'loading*',
      'idle',
      'running*',
      'running*',
      'done',
    ]);
    expect(s).toMatchObject({
      result,
      ran: request,
      loadedDevice: 'wasm',
      info: { missingBytes: 0, files: [{ cached: true }] },
    });
  });

  it('progress of a download that has ended (chunks still under way) leaves the failure or cancel as it is', () => {
    const progress = { file: 'w.safetensors', loaded: 5, total: 10, overallLoaded: 5, overallTotal: 10 };
    const error = new Error('HTTP 500');
    const failed = reduce([
      { type: 'inspected', info },
      { type: 'download', progress: null },
      { type: 'failed', error },
      { type: 'download', progress },
    ]);
    expect(failed.phase).toEqual({ kind: 'failed', error });
    const cancelled = reduce([
      { type: 'download', progress: null },
      { type: 'cancelled', notice: 'c' },
      { type: 'download', progress },
    ]);
    expect(cancelled.phase).toEqual({ kind: 'cancelled' });
    expect(
      reduce([
        { type: 'download', progress: null },
        { type: 'download', progress },
      ]).phase,
    ).toEqual({ kind: 'loading', step: 'download', progress });
  });

  it('clearing the cache is busy until it ends, then idle with what it removed or why it could not', () => {
    const clearing = reduce([
      { type: 'inspected', info },
      { type: 'downloaded' },
      { type: 'loaded', device: 'wasm' },
      { type: 'clear' },
    ]);
    expect(isBusy(clearing.phase)).toBe(true);
    expect(clearing.loadedDevice).toBeNull();
    expect(reduce([{ type: 'cacheCleared', files: 2 }], clearing)).toMatchObject({
      phase: { kind: 'idle' },
      notice: 'Removed 2 cached files from the browser cache.',
      info: { missingBytes: 10 },
    });
    expect(reduce([{ type: 'clearFailed', notice: 'in use' }], clearing)).toMatchObject({
      phase: { kind: 'idle' },
      notice: 'in use',
      info: { missingBytes: 0 },
    });
  });

  it('a recount of stored bytes after a stop offers only the rest; a stale or unchanged one changes nothing', () => {
    const stopped = reduce([
      { type: 'inspected', info },
      { type: 'download', progress: null },
      { type: 'cancelled', notice: 'c' },
    ]);
    const files = [{ ...info.files[0]!, storedBytes: 6 }];
    const recounted = reduce([{ type: 'recounted', files }], stopped);
    expect(recounted.info).toMatchObject({ missingBytes: 4, files: [{ storedBytes: 6, cached: false }] });
    expect(reduce([{ type: 'recounted', files }], recounted)).toBe(recounted);
    // a count for another version of the file (a new inspection came in between) is not this one's
    expect(reduce([{ type: 'recounted', files: [{ ...files[0]!, etag: '"x"' }] }], stopped)).toBe(stopped);
    // clearing the cache stores nothing any more
    expect(reduce([{ type: 'cacheCleared', files: 0 }], recounted).info).toMatchObject({
      missingBytes: 10,
      files: [{ storedBytes: 0 }],
    });
  });

  it('a new inspection forgets the last checkpoint, run and notice', () => {
    const s = reduce([
      { type: 'inspected', info },
      { type: 'loaded', device: 'webgpu' },
      { type: 'done', result },
      { type: 'notice', notice: 'x' },
      { type: 'inspect' },
    ]);
    expect(s).toEqual({ ...initialPreviewState, phase: { kind: 'inspecting' } });
  });

  it('a failure keeps the checkpoint and the loaded model; a cancel says so; a stage after it is ignored', () => {
    const error = new Error('boom');
    const failed = reduce([
      { type: 'inspected', info },
      { type: 'loaded', device: 'wasm' },
      { type: 'run', request },
      { type: 'failed', error },
    ]);
    expect(failed).toMatchObject({ phase: { kind: 'failed', error }, info, loadedDevice: 'wasm' });
    const cancelled = reduce(
      [
        { type: 'run', request },
        { type: 'workerStopped' },
        { type: 'cancelled', notice: 'Run cancelled' },
        { type: 'stage', stage: 'late' },
      ],
      failed,
    );
    expect(cancelled).toMatchObject({ phase: { kind: 'cancelled' }, notice: 'Run cancelled', loadedDevice: null });
  });

  it('clearing the cache marks every file uncached and unloads the model', () => {
    const s = reduce([
      { type: 'inspected', info },
      { type: 'downloaded' },
      { type: 'loaded', device: 'wasm' },
      { type: 'cacheCleared', files: 1 },
    ]);
    expect(s).toMatchObject({
      loadedDevice: null,
      notice: 'Removed 1 cached file from the browser cache.',
      info: { missingBytes: 10, files: [{ cached: false }] },
    });
  });
});
