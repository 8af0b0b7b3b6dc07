// The preview page's state: one phase at a time, and what the last inspection and run left.
import { missingBytes, type CheckpointInfo, type DownloadProgress, type WeightFile } from './checkpoint.ts';
import type { Device, RunRequest, RunResult, StepFrame } from './protocol.ts';

export type Phase =
  | { kind: 'idle' }
  | { kind: 'inspecting' }
  /** downloading the weights into the browser cache, then loading the model in the worker */
  | { kind: 'loading'; step: 'download'; progress: DownloadProgress | null }
  /** `fetched`: weight bytes streamed from the hub so far (none when all come from the cache) */
  | { kind: 'loading'; step: 'model'; fetched?: { loaded: number; total: number } }
  | { kind: 'running'; stage: string }
  /** removing the browser cache's files (a worker just stopped lets go of them a moment later) */
  | { kind: 'clearing' }
  | { kind: 'done' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'cancelled' };

export interface PreviewState {
  phase: Phase;
  info: CheckpointInfo | null;
  /** the device the worker's model is loaded on; null without a loaded worker */
  loadedDevice: Device | null;
  /** what the shown steps and result were run with (the inputs may have changed since) */
  ran: RunRequest | null;
  steps: StepFrame[];
  result: RunResult | null;
  /** one line for the user: a cancel, a fallback, a cache that could not store the weights */
  notice: string | null;
}

export type PreviewAction =
  | { type: 'inspect' }
  | { type: 'inspected'; info: CheckpointInfo }
  | { type: 'download'; progress: DownloadProgress | null }
  | { type: 'downloaded' }
  | { type: 'load' }
  | { type: 'loadProgress'; loaded: number; total: number }
  | { type: 'loaded'; device: Device }
  /** every weight file is now in the browser cache */
  | { type: 'cached' }
  /** the stored bytes of the inspected files, counted again (a download or a run stopped part way) */
  | { type: 'recounted'; files: WeightFile[] }
  | { type: 'run'; request: RunRequest }
  | { type: 'stage'; stage: string }
  | { type: 'step'; frame: StepFrame }
  | { type: 'done'; result: RunResult }
  | { type: 'failed'; error: unknown }
  | { type: 'cancelled'; notice: string }
  | { type: 'notice'; notice: string | null }
  | { type: 'workerStopped' }
  | { type: 'clear' }
  | { type: 'cacheCleared'; files: number }
  | { type: 'clearFailed'; notice: string };

export const initialPreviewState: PreviewState = {
  phase: { kind: 'idle' },
  info: null,
  loadedDevice: null,
  ran: null,
  steps: [],
  result: null,
  notice: null,
};

export const isBusy = (p: Phase): boolean =>
  p.kind === 'inspecting' || p.kind === 'loading' || p.kind === 'running' || p.kind === 'clearing';

const withFiles = (info: CheckpointInfo, files: WeightFile[]): CheckpointInfo => ({
  ...info,
  files,
  missingBytes: missingBytes(files),
});
const allCached = (info: CheckpointInfo | null, cached: boolean): CheckpointInfo | null =>
  info &&
  withFiles(
    info,
    info.files.map((f) => ({ ...f, cached, storedBytes: cached ? f.size : 0 })),
  );

export function previewReducer(s: PreviewState, a: PreviewAction): PreviewState {
  switch (a.type) {
    case 'inspect':
      return { ...initialPreviewState, phase: { kind: 'inspecting' } };
    case 'inspected':
      return { ...s, phase: { kind: 'idle' }, info: a.info };
    case 'download':
      // progress of a download that has ended (failed, cancelled: chunks under way still arrive) changes nothing
      if (a.progress && !(s.phase.kind === 'loading' && s.phase.step === 'download')) return s;
      return { ...s, phase: { kind: 'loading', step: 'download', progress: a.progress } };
    case 'downloaded':
    case 'cached':
      return { ...s, info: allCached(s.info, true) };
    case 'recounted': {
      // a count for other files (a new inspection since) or one that changes nothing keeps the state
      const info = s.info;
      if (
        !info ||
        a.files.length !== info.files.length ||
        a.files.some((f, i) => f.url !== info.files[i]!.url || f.etag !== info.files[i]!.etag)
      )
        return s;
      if (a.files.every((f, i) => f.storedBytes === info.files[i]!.storedBytes && f.cached === info.files[i]!.cached))
        return s;
      return { ...s, info: withFiles(info, a.files) };
    }
    case 'load':
      return { ...s, phase: { kind: 'loading', step: 'model' }, loadedDevice: null };
    case 'loadProgress':
      return s.phase.kind === 'loading'
        ? { ...s, phase: { kind: 'loading', step: 'model', fetched: { loaded: a.loaded, total: a.total } } }
        : s;
    case 'loaded':
      return { ...s, phase: { kind: 'idle' }, loadedDevice: a.device };
    case 'run':
      return { ...s, phase: { kind: 'running', stage: 'starting' }, ran: a.request, steps: [], result: null };
    case 'stage':
      return s.phase.kind === 'running' ? { ...s, phase: { kind: 'running', stage: a.stage } } : s;
    case 'step':
      return { ...s, steps: [...s.steps, a.frame] };
    case 'done':
      return { ...s, phase: { kind: 'done' }, result: a.result, loadedDevice: a.result.provider };
    case 'failed':
      return { ...s, phase: { kind: 'failed', error: a.error } };
    case 'cancelled':
      return { ...s, phase: { kind: 'cancelled' }, notice: a.notice };
    case 'notice':
      return { ...s, notice: a.notice };
    case 'workerStopped':
      return { ...s, loadedDevice: null };
    case 'clear':
      return { ...s, phase: { kind: 'clearing' }, loadedDevice: null };
    case 'clearFailed':
      return { ...s, phase: { kind: 'idle' }, notice: a.notice };
    case 'cacheCleared':
      return {
        ...s,
        phase: { kind: 'idle' },
        loadedDevice: null,
        info: allCached(s.info, false),
        notice: `Removed ${a.files} cached file${a.files === 1 ? '' : 's'} from the browser cache.`,
      };
  }
}
