import { describe, expect, it } from 'vitest';
import { withStored, type CheckpointInfo } from './checkpoint.ts';
import { previewKeys } from './queries.ts';
import { initialPreviewState, isBusy, previewReducer, type PreviewAction, type PreviewState } from './preview-state.ts';
import type { RunRequest, RunResult } from './worker/protocol.ts';
import { parseConfig } from '../../model/graph/config.ts';
import { defaultSpec, inputLimits } from '../../model/graph/input-spec.ts';
import { CONSISID_TINY_CONFIG } from '../../model/models/consisid/demo-checkpoints.ts';

const info: CheckpointInfo = {
  ref: { hubUrl: 'http://h', token: null, repoId: 'a/b', subfolder: 'transformer', revision: 'main' },
  rawConfig: {},
  config: parseConfig(CONSISID_TINY_CONFIG),
  limits: inputLimits(parseConfig(CONSISID_TINY_CONFIG)),
  spec: defaultSpec(parseConfig(CONSISID_TINY_CONFIG)),
  files: [
    {
      name: 'w.safetensors',
      header: { file: 'w', metadata: {}, tensors: new Map(), dataStart: 8 },
      head: new Uint8Array(8),
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
  downloadFrom: 'files',
  missingBytes: 10,
  refused: null,
  vae: { error: 'no vae/' },
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
  view: { shape: [1], frames: [], stats: [] },
  summary: { shape: [1], sum: 0, sumAbs: 0, maxAbs: 0, first: [0] },
  readback: { count: 0, bytes: 0 },
  timings: { loadMs: 1, graphBuildMs: [], sessionCreateMs: [], forwardMs: [1], rotaryMs: 0 },
  provider: 'wasm',
  weights: 'float32',
  segments: 1,
};
const reduce = (actions: PreviewAction[], from: PreviewState = initialPreviewState) =>
  actions.reduce(previewReducer, from);

describe('preview state', () => {
  it('goes inspect -> download -> load -> run -> done, busy in between', () => {
    const seen: string[] = [];
    let s = initialPreviewState;
    for (const a of [
      { type: 'inspect', ref: info.ref },
      { type: 'download', progress: null },
      { type: 'load' },
      { type: 'loadModel', update: { fetched: { loaded: 1, total: 10 } } },
      { type: 'loaded', device: 'wasm' },
      { type: 'run', request },
      { type: 'stage', stage: 'forward pass' },
      { type: 'done', result },
    ] as PreviewAction[]) {
      s = previewReducer(s, a);
      seen.push(`${s.activity.kind}${isBusy(s.activity) ? '*' : ''}`);
    }
    expect(seen).toEqual(['idle', 'loading*', 'loading*', 'loading*', 'idle', 'running*', 'running*', 'done']);
    expect(s).toMatchObject({ result, ran: request, loadedDevice: 'wasm', checkpoint: { ref: info.ref } });
    // the inspection is a query: inspecting is busy too, and a finished download leaves nothing to download
    expect(isBusy({ kind: 'inspecting' })).toBe(true);
    expect(withStored(info, [{ bytes: 10 }])).toMatchObject({ missingBytes: 0, files: [{ cached: true }] });
  });

  it("a decode is busy with its batches, keeps the run's output, and its clip goes with the next run", () => {
    const clip = { width: 1, height: 1, frames: [new Uint8ClampedArray(4)] };
    const ran = reduce([
      { type: 'inspect', ref: info.ref },
      { type: 'run', request },
      { type: 'done', result },
    ]);
    const decoding = reduce(
      [
        { type: 'decode', batch: null },
        { type: 'decode', batch: { done: 2, total: 7 } },
      ],
      ran,
    );
    expect(decoding.activity).toEqual({ kind: 'decoding', batch: { done: 2, total: 7 } });
    expect(isBusy(decoding.activity)).toBe(true);
    const decoded = reduce([{ type: 'decoded', clip }], decoding);
    expect(decoded).toMatchObject({ activity: { kind: 'done' }, clip, result });
    // a second decode forgets the first clip (and the last notice) until its own comes; a new run forgets it too
    const again = reduce(
      [
        { type: 'notice', notice: 'Decode cancelled' },
        { type: 'decode', batch: null },
      ],
      decoded,
    );
    expect(again).toMatchObject({ clip: null, notice: null });
    expect(reduce([{ type: 'run', request }], decoded).clip).toBeNull();
    // a cancelled decode: the batch under way still reports, and a clip that still arrives is dropped
    const cancelled = reduce([{ type: 'cancelled', notice: 'c' }], decoding);
    const late = reduce(
      [
        { type: 'decode', batch: { done: 3, total: 7 } },
        { type: 'decoded', clip },
      ],
      cancelled,
    );
    expect(late).toMatchObject({ activity: { kind: 'cancelled' }, clip: null, result });
  });

  it('a load says what making the session is doing, and how much streamed, together; nothing after it ends', () => {
    const loading = reduce([
      { type: 'inspect', ref: info.ref },
      { type: 'load' },
      { type: 'loadModel', update: { stage: 'creating the WASM session' } },
      { type: 'loadModel', update: { fetched: { loaded: 3, total: 10 } } },
    ]);
    expect(loading.activity).toEqual({
      kind: 'loading',
      step: 'model',
      stage: 'creating the WASM session',
      fetched: { loaded: 3, total: 10 },
    });
    const loaded = reduce(
      [
        { type: 'loaded', device: 'wasm' },
        { type: 'loadModel', update: { stage: 'late' } },
      ],
      loading,
    );
    expect(loaded.activity).toEqual({ kind: 'idle' });
  });

  it('progress of a download that has ended (chunks still under way) leaves the failure or cancel as it is', () => {
    const progress = { file: 'w.safetensors', loaded: 5, total: 10, overallLoaded: 5, overallTotal: 10 };
    const error = new Error('HTTP 500');
    const failed = reduce([
      { type: 'inspect', ref: info.ref },
      { type: 'download', progress: null },
      { type: 'failed', error },
      { type: 'download', progress },
    ]);
    expect(failed.activity).toEqual({ kind: 'failed', error });
    const cancelled = reduce([
      { type: 'download', progress: null },
      { type: 'cancelled', notice: 'c' },
      { type: 'download', progress },
    ]);
    expect(cancelled.activity).toEqual({ kind: 'cancelled' });
    expect(
      reduce([
        { type: 'download', progress: null },
        { type: 'download', progress },
      ]).activity,
    ).toEqual({ kind: 'loading', step: 'download', progress });
  });

  it('clearing the cache is busy until it ends, then idle with what it removed or why it could not', () => {
    const clearing = reduce([
      { type: 'inspect', ref: info.ref },
      { type: 'loaded', device: 'wasm' },
      { type: 'clear' },
    ]);
    expect(isBusy(clearing.activity)).toBe(true);
    expect(clearing.loadedDevice).toBeNull();
    expect(reduce([{ type: 'cleared', files: 2 }], clearing)).toMatchObject({
      activity: { kind: 'idle' },
      notice: 'Removed 2 cached files from the browser cache.',
    });
    expect(reduce([{ type: 'clearFailed', notice: 'in use' }], clearing)).toMatchObject({
      activity: { kind: 'idle' },
      notice: 'in use',
    });
    // what the page shows of the files: none stored after a clear
    expect(withStored(info, [{ bytes: 0 }])).toMatchObject({ missingBytes: 10 });
  });

  it('a recount of stored bytes after a stop offers only the rest; a stale or unchanged one changes nothing', () => {
    const stored = [{ bytes: 6 }];
    const recounted = withStored(info, stored);
    expect(recounted).toMatchObject({ missingBytes: 4, files: [{ storedBytes: 6, cached: false }] });
    expect(withStored(recounted, stored)).toBe(recounted);
    // a listing for another version of the file, or of another inspection, is kept apart from this one's
    const otherVersion = { ...info, files: [{ ...info.files[0]!, etag: '"x"' }] };
    expect(previewKeys.cached(otherVersion, 1)).not.toEqual(previewKeys.cached(info, 1));
    expect(previewKeys.cached(info, 2)).not.toEqual(previewKeys.cached(info, 1));
    // clearing the cache stores nothing any more
    expect(withStored(recounted, [{ bytes: 0 }])).toMatchObject({
      missingBytes: 10,
      files: [{ storedBytes: 0 }],
    });
  });

  it('a new inspection forgets the last checkpoint, run and notice, and is a fresh read', () => {
    const first = reduce([{ type: 'inspect', ref: info.ref }]);
    const s = reduce(
      [
        { type: 'loaded', device: 'webgpu' },
        { type: 'done', result },
        { type: 'notice', notice: 'x' },
        { type: 'cacheRefused', notice: 'quota' },
        { type: 'inspect', ref: info.ref },
      ],
      first,
    );
    expect(s).toEqual({ ...initialPreviewState, checkpoint: { ref: info.ref, attempt: 2 } });
    expect(previewKeys.inspection(info.ref, 2)).not.toEqual(previewKeys.inspection(info.ref, 1));
    // the token is no part of a key
    expect(JSON.stringify(previewKeys.inspection({ ...info.ref, token: 'hf_secret' }, 1))).not.toContain('hf_secret');
  });

  it('a failure keeps the checkpoint and the loaded model; a cancel says so; a stage after it is ignored', () => {
    const error = new Error('boom');
    const failed = reduce([
      { type: 'inspect', ref: info.ref },
      { type: 'loaded', device: 'wasm' },
      { type: 'run', request },
      { type: 'failed', error },
    ]);
    expect(failed).toMatchObject({
      activity: { kind: 'failed', error },
      checkpoint: { ref: info.ref },
      loadedDevice: 'wasm',
    });
    const cancelled = reduce(
      [
        { type: 'run', request },
        { type: 'workerStopped' },
        { type: 'cancelled', notice: 'Run cancelled' },
        { type: 'stage', stage: 'late' },
      ],
      failed,
    );
    expect(cancelled).toMatchObject({ activity: { kind: 'cancelled' }, notice: 'Run cancelled', loadedDevice: null });
  });

  it('clearing the cache unloads the model and lets the cache try again', () => {
    const s = reduce([
      { type: 'inspect', ref: info.ref },
      { type: 'cacheRefused', notice: 'quota' },
      { type: 'loaded', device: 'wasm' },
      { type: 'cleared', files: 1 },
    ]);
    expect(s).toMatchObject({
      loadedDevice: null,
      uncached: false,
      notice: 'Removed 1 cached file from the browser cache.',
    });
  });
});
