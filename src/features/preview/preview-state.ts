// What the user does on the preview page and how far it got: the checkpoint asked for, the
// provider, precision and inputs chosen, the download, the model load, the run and its output, its
// decode into frames, a cancel. What the page reads (the inspection, the stored bytes, the adapter,
// the storage room, the plans) are queries (queries.ts), not state kept here.
import type { ProviderChoice } from './provider.ts';
import type {
  CheckpointRef,
  DecodeBatch,
  DecodedClip,
  Device,
  RunRequest,
  RunResult,
  StepFrame,
} from './worker/protocol.ts';
import type { CheckpointProgress, WeightPrecision } from '../../model/index.ts';

/** what the user started last and where it stands */
export type Activity =
  | { kind: 'idle' }
  /** downloading the weights into the browser cache, then loading the model in the worker */
  | { kind: 'loading'; step: 'download'; progress: CheckpointProgress | null }
  /** `fetched`: weight bytes streamed from the hub so far (none when all come from the cache) */
  | { kind: 'loading'; step: 'model'; fetched?: { loaded: number; total: number }; stage?: string }
  | { kind: 'running'; stage: string }
  /** the run's latents through the checkpoint's vae/: batches done of how many (null: loading the VAE) */
  | { kind: 'decoding'; batch: DecodeBatch | null }
  /** removing the browser cache's files (a worker just stopped lets go of them a moment later) */
  | { kind: 'clearing' }
  | { kind: 'done' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'cancelled' };

/** what the page shows: the user's activity, or the inspection (a query) while it runs */
export type Phase = Activity | { kind: 'inspecting' };

export interface PreviewState {
  /** the checkpoint the user asked to inspect; each Inspect is a new `attempt` (a fresh read) */
  checkpoint: { ref: CheckpointRef; attempt: number } | null;
  activity: Activity;
  /** the device the worker's model is loaded on; null without a loaded worker */
  loadedDevice: Device | null;
  /** what the shown steps and result were run with (the inputs may have changed since) */
  ran: RunRequest | null;
  steps: StepFrame[];
  result: RunResult | null;
  /** the result's latents decoded into frames */
  clip: DecodedClip | null;
  /** one line for the user: a cancel, a fallback, a cache that could not store the weights */
  notice: string | null;
  /** the browser cache refused this checkpoint's weights once: later runs stream them from the hub */
  uncached: boolean;
  choice: ProviderChoice;
  /** the precision the user picked; null: the default for the device and what fits */
  precision: WeightPrecision | null;
  /** the inputs of a run as last edited, for the checkpoint they were edited on */
  draft: { ref: CheckpointRef; request: RunRequest } | null;
}

export type PreviewAction =
  | { type: 'inspect'; ref: CheckpointRef }
  | { type: 'download'; progress: CheckpointProgress | null }
  | { type: 'cacheRefused'; notice: string }
  | { type: 'load' }
  /** the model load's weight bytes streamed so far, or what making the session is doing (building the graph, a segment's session) */
  | { type: 'loadModel'; update: Pick<Extract<Activity, { step: 'model' }>, 'fetched' | 'stage'> }
  | { type: 'loaded'; device: Device }
  | { type: 'run'; request: RunRequest }
  | { type: 'stage'; stage: string }
  | { type: 'step'; frame: StepFrame }
  | { type: 'done'; result: RunResult }
  | { type: 'decode'; batch: DecodeBatch | null }
  | { type: 'decoded'; clip: DecodedClip }
  | { type: 'failed'; error: unknown }
  | { type: 'cancelled'; notice: string }
  | { type: 'notice'; notice: string | null }
  | { type: 'workerStopped' }
  | { type: 'clear' }
  /** the cache cleared (`files` removed), or why it could not be */
  | { type: 'cleared'; files: number }
  | { type: 'clearFailed'; notice: string }
  | { type: 'choose'; choice: ProviderChoice }
  | { type: 'precision'; weights: WeightPrecision }
  | { type: 'edit'; ref: CheckpointRef; request: RunRequest };

const NO_OUTPUT = { steps: [], result: null, clip: null };

export const initialPreviewState: PreviewState = {
  checkpoint: null,
  activity: { kind: 'idle' },
  loadedDevice: null,
  ran: null,
  ...NO_OUTPUT,
  notice: null,
  uncached: false,
  choice: 'auto',
  precision: null,
  draft: null,
};

export const isBusy = (p: Phase): boolean =>
  ['inspecting', 'loading', 'running', 'decoding', 'clearing'].includes(p.kind);

export function previewReducer(s: PreviewState, a: PreviewAction): PreviewState {
  switch (a.type) {
    case 'inspect':
      // a new checkpoint forgets the last run and notice; a cache that could not keep one checkpoint may keep another
      return {
        ...initialPreviewState,
        choice: s.choice,
        precision: s.precision,
        draft: s.draft,
        checkpoint: { ref: a.ref, attempt: (s.checkpoint?.attempt ?? 0) + 1 },
      };
    case 'download':
      // progress of a download that has ended (failed, cancelled: chunks under way still arrive) changes nothing
      if (a.progress && !(s.activity.kind === 'loading' && s.activity.step === 'download')) return s;
      return { ...s, activity: { kind: 'loading', step: 'download', progress: a.progress } };
    case 'cacheRefused':
      return { ...s, uncached: true, notice: a.notice };
    case 'load':
      return { ...s, activity: { kind: 'loading', step: 'model' }, loadedDevice: null };
    case 'loadModel':
      return s.activity.kind === 'loading' && s.activity.step === 'model'
        ? { ...s, activity: { ...s.activity, ...a.update } }
        : s;
    case 'loaded':
      return { ...s, activity: { kind: 'idle' }, loadedDevice: a.device };
    case 'run':
      return { ...s, ...NO_OUTPUT, activity: { kind: 'running', stage: 'starting' }, ran: a.request };
    case 'stage':
      return s.activity.kind === 'running' ? { ...s, activity: { kind: 'running', stage: a.stage } } : s;
    case 'step':
      return { ...s, steps: [...s.steps, a.frame] };
    case 'done':
      return { ...s, activity: { kind: 'done' }, result: a.result, loadedDevice: a.result.provider };
    case 'decode':
      // a batch of a decode that has ended (cancelled: the batch under way still reports) changes nothing
      if (a.batch && s.activity.kind !== 'decoding') return s;
      return { ...s, activity: { kind: 'decoding', batch: a.batch }, ...(a.batch ? {} : { clip: null, notice: null }) };
    case 'decoded':
      return s.activity.kind === 'decoding' ? { ...s, activity: { kind: 'done' }, clip: a.clip } : s;
    case 'failed':
      return { ...s, activity: { kind: 'failed', error: a.error } };
    case 'cancelled':
      return { ...s, activity: { kind: 'cancelled' }, notice: a.notice };
    case 'notice':
      return { ...s, notice: a.notice };
    case 'workerStopped':
      return { ...s, loadedDevice: null };
    case 'clear':
      return { ...s, activity: { kind: 'clearing' }, loadedDevice: null };
    case 'clearFailed':
      return { ...s, activity: { kind: 'idle' }, notice: a.notice };
    case 'cleared':
      return {
        ...s,
        activity: { kind: 'idle' },
        loadedDevice: null,
        uncached: false,
        notice: `Removed ${a.files} cached file${a.files === 1 ? '' : 's'} from the browser cache.`,
      };
    case 'choose':
      return { ...s, choice: a.choice };
    case 'precision':
      return { ...s, precision: a.weights };
    case 'edit':
      return { ...s, draft: { ref: a.ref, request: a.request } };
  }
}
