// The workers' methods, as the page calls them (rpc.ts carries them): the model worker loads and
// runs a model; the plan worker answers what the page reads (inspections, plans, the cache's
// contents) and files what it writes (uploads in, the output out).
import type {
  CachedFileState,
  CheckpointInfo,
  CheckpointProgress,
  DecodedClip,
  ConsisIDConfig,
  FitAnswer,
  FitRequest,
  InputSpec,
  PreviewRequest,
  ShownRun,
  ShownStep,
  Timings,
  VaeDecodePlan,
  WeightPrecision,
} from '../../../model/index.ts';

export type { CachedFileState, DecodedClip, FitAnswer, FitRequest, Timings };

/** a denoising step as the page gets it: its latents drawn (absent for a step the page was not sent) */
export type StepFrame = ShownStep;
/** a tensor drawn: each frame as RGBA pixels, and each channel's statistics */
export type LatentView = ShownRun['view'];
/** uploaded inputs in place of random ones */
export type Uploads = PreviewRequest['uploads'];
/** one precision's fit, with its reasons */
export type PrecisionFit = FitAnswer['fits'][number];
/** the adapter a plan is checked against */
export type AdapterCaps = NonNullable<FitAnswer['adapter']>;
/** the adapter as the page's probe found it: the limits it reports (the workers take the spec's defaults for the others) */
export type AdapterReport = NonNullable<FitRequest['adapter']>;
/** what the browser can store, read by the page */
export type BrowserStorage = NonNullable<FitRequest['storage']>;
/** a checkpoint folder on the hub */
export type CheckpointRef = CheckpointInfo['ref'];
/** a weight file as its inspection found it */
export type InspectedFile = CheckpointInfo['files'][number];

export type Device = 'webgpu' | 'wasm';

/** how the page and the worker's stage lines name a device */
export const deviceName = (d: string | null): string => (d === 'webgpu' ? 'WebGPU' : 'WASM');

export interface RunRequest extends PreviewRequest {
  /** a forward pass is run again in float32 and compared (max relative error) */
  compare: boolean;
  /** the denoising loop keeps its latents on the model's device (default); false: on the host, every output read back */
  deviceLatents?: boolean;
}

/** what a WebGPU model's segments are fitted to (docs/model-segments.md): the adapter's limits, the bytes one segment may pass through the heap */
export interface SegmentLimits {
  gpu: AdapterReport['limits'];
  /** default SEGMENT_HEAP_BUDGET; the page's ?segmentHeap= sets it */
  heapBudget?: number;
}

/** what a model worker is started for: a run with other options needs a fresh one */
export interface RunOptions {
  device: Device;
  /** automatic provider choice: a WebGPU failure falls back to WASM */
  fallback: boolean;
  threads: number;
  /** how the large Linear layers hold their weights */
  weights: WeightPrecision;
  /** WebGPU: the transformer runs in as few segments as fit these; null (WASM, whose heap keeps every segment): one session */
  segmentLimits: SegmentLimits | null;
  /** the most converted bytes held in memory where the browser cache cannot store them (FitAnswer.held); null: the heap budget */
  memoryBudget: number | null;
}

export interface LoadRequest extends RunOptions {
  ref: CheckpointRef;
  /** the weight files as inspected (size, ETag and the header's bytes) */
  files: Pick<InspectedFile, 'name' | 'size' | 'etag' | 'head' | 'cached'>[];
  /** the session is made for this request's shape */
  request: PreviewRequest;
  /** float32: every file not in the cache is downloaded into it first, with progress */
  download: boolean;
}

/** the run's output (drawn, summed up, and what it read back from the device) and how it ran */
export interface RunResult extends Omit<ShownRun, 'args'> {
  timings: Timings;
  /** the device the output was computed on (after any fallback) */
  provider: Device;
  weights: WeightPrecision;
  /** the sessions the transformer ran in (1: the whole graph) */
  segments: number;
  /** with `compare`: the same forward in float32, and max|out - float32| / max|float32|; or why that forward failed (the output stands) */
  compared?: { error: number; forwardMs: number } | { failed: string };
}

/**
 * `download`: the float32 download's progress; `downloaded`: it ended (stored, or why the cache
 * refused); `fetched`: weight bytes the session streamed from the hub so far (the rest came from the cache)
 */
export type LoadEvent =
  | { type: 'notice'; text: string }
  | { type: 'stage'; stage: string }
  | { type: 'fallback'; reason: string }
  | { type: 'download'; progress: CheckpointProgress }
  | { type: 'downloaded'; cached: true }
  | { type: 'downloaded'; cached: false; reason: string }
  | { type: 'fetched'; loaded: number; total: number };

/** `notice`: the browser cache refused while the run read the weights */
export type RunEvent =
  | { type: 'stage'; stage: string }
  | { type: 'fallback'; reason: string }
  | { type: 'notice'; text: string }
  | ({ type: 'step' } & StepFrame);

/**
 * a run's latents through the checkpoint's inspected vae/ (float32, on the worker's device), tiled
 * for `limits` where needed, beside the loaded transformer where the budget left holds it
 */
export interface DecodeRequest extends Pick<RunOptions, 'device' | 'threads'> {
  /** the vae/ as inspected: its files, and its config (the decode's precision is planned before its weights are read) */
  vae: { ref: CheckpointRef; files: InspectedFile[]; rawConfig: Record<string, unknown> };
  latents: { data: Float32Array; dims: number[] };
  limits: AdapterReport['limits'] | null;
  /** the fit of the transformer the worker holds (the chosen precision's): what its sessions hold */
  transformer: TransformerFit | null;
  /** the bytes the page gives a decode (?decodeBudget=); null: the device's default */
  budgetBytes: number | null;
}
/** what a transformer's fit says its sessions hold on the device (a decode's budget is what is left) */
export type TransformerFit = Pick<PrecisionFit, 'device' | 'weights' | 'gpuBytes' | 'heapBytes'>;
type DecodeEvent = Extract<LoadEvent, { type: 'notice' | 'fetched' }> | { type: 'batch'; batch: DecodeBatch };
/** after each batch of latent frames: how many ran of how many (over all tiles) */
export type DecodeBatch = { done: number; total: number };

/** what a decode of the run's latents needs (planPreviewDecode), and whether it runs beside the transformer's sessions */
export type VaeFit = Pick<
  VaeDecodePlan,
  | 'precision'
  | 'weightBytes'
  | 'activationPeakBytes'
  | 'tiles'
  | 'fit'
  | 'misses'
  | 'beside'
  | 'heldBytes'
  | 'needBytes'
  | 'budget'
>;

/** a worker method that reports no events on the way */
type Call<Args, Result> = { args: Args; result: Result; event: never };

export type ModelApi = {
  /** the model with its session made: the weights are in it */
  load: { args: LoadRequest; result: { device: Device }; event: LoadEvent };
  run: { args: RunRequest; result: RunResult; event: RunEvent };
  /** after a run: the weight chunks the session did not read go into the cache too; true when every file is cached */
  finishCache: Call<null, boolean>;
  /** cancelled through the call's signal: the sessions are released after the batch under way */
  decode: { args: DecodeRequest; result: DecodedClip; event: DecodeEvent };
};

/** the room the browser leaves this site for the weights */
export interface StorageRoom {
  /** bytes the origin may still store (navigator.storage.estimate: quota less usage); null when the browser does not say */
  free: number | null;
  /** why the browser stores no files here (no OPFS, private mode); null when it does */
  unusable: string | null;
}

type FileVersion = Pick<InspectedFile, 'url' | 'etag' | 'size'>;

/** the plan worker: a full-size config's graph takes a second to plan, and the cache is read, away from the page's thread */
export type PlanApi = {
  /** config.json, the shard index and the headers; refused (no header read) when no precision fits a device this browser has */
  inspect: Call<{ ref: CheckpointRef; adapter: AdapterReport | null }, CheckpointInfo>;
  fit: Call<FitRequest, FitAnswer>;
  vaeFit: Call<
    Pick<DecodeRequest, 'transformer' | 'budgetBytes' | 'threads'> & {
      vae: Record<string, unknown>;
      dims: number[];
      device: Device;
      adapter: AdapterReport | null;
    },
    VaeFit
  >;
  /** per precision but float32, the bytes the converter writes for the checkpoint (convertedSizes) */
  converted: Call<
    { info: Pick<CheckpointInfo, 'config' | 'weights'>; spec: InputSpec; device: Device },
    Partial<Record<WeightPrecision, number>>
  >;
  /** each file's chunks and conversions in the cache */
  cached: Call<FileVersion[], CachedFileState[]>;
  /** why the browser stores no files here (no OPFS, private mode); null when it does */
  unusable: Call<null, string | null>;
  /** the files out of the cache; how many held something */
  remove: Call<FileVersion[], number>;
  /** the whole cache emptied; how many files went */
  clear: Call<null, number>;
  /** an uploaded .safetensors checked against the config */
  upload: Call<{ bytes: Uint8Array; name: string; kind: 'text' | 'identity'; config: ConsisIDConfig }, Uploads>;
  /** the run's output as a .safetensors file */
  output: Call<{ sample: Float32Array; shape: number[]; metadata: Record<string, string> }, Uint8Array>;
};
