// The preview worker's methods, as the page calls them (worker-rpc.ts carries them).
import type { CheckpointRef } from './checkpoint.ts';
import type { F32Tensor, InputSpec } from './inputs.ts';
import type {
  AdapterCaps,
  BrowserStorage,
  ConsisIDConfig,
  GraphShape,
  HubFileEntry,
  PrecisionFit,
  WebGpuLimits,
  WeightPrecision,
} from '../../model/index.ts';
import type { WeightSet } from '../../model/io/safetensors/weight-set.ts';

export type Device = 'webgpu' | 'wasm';

export interface Uploads {
  /** (1, L, text_embed_dim) text embeddings in place of random ones */
  text?: F32Tensor;
  /** identity inputs in place of random ones */
  idCond?: F32Tensor;
  idVitHidden?: F32Tensor[];
}

export interface RunRequest {
  spec: InputSpec;
  mode: 'forward' | 'denoise';
  steps: number;
  /** classifier-free guidance scale; 1 or less turns it off */
  guidance: number;
  uploads: Uploads;
  /** a forward pass is run again in float32 and compared (max relative error) */
  compare: boolean;
  /** the denoising loop keeps its latents on the model's device (default); false: on the host, every output read back */
  deviceLatents?: boolean;
}

/** what a WebGPU model's segments are fitted to (docs/model-segments.md): the adapter's limits, the bytes one segment may pass through the heap */
export interface SegmentLimits {
  gpu: WebGpuLimits;
  /** default SEGMENT_HEAP_BUDGET; the page's ?segmentHeap= sets it */
  heapBudget?: number;
}

export interface LoadRequest {
  ref: CheckpointRef;
  /** the weight files as inspected (size, ETag and the header's bytes) */
  files: HubFileEntry[];
  device: Device;
  threads: number;
  /** WebGPU session failures fall back to WASM (automatic provider choice) */
  fallback: boolean;
  /** how the large Linear layers hold their weights */
  weights: WeightPrecision;
  /** WebGPU: the transformer runs in as few segments as fit these; null (WASM, whose heap keeps every segment): one session */
  segmentLimits: SegmentLimits | null;
  /**
   * the most converted bytes held in memory where the browser cache cannot store them: the segment's
   * heap budget less the largest segment's weights, which pass through the heap beside them (null:
   * the heap budget)
   */
  memoryBudget: number | null;
}

export interface Timings {
  /** reading the weights (browser cache or hub) and parsing them */
  loadMs: number;
  graphBuildMs: number[];
  sessionCreateMs: number[];
  forwardMs: number[];
  rotaryMs: number;
}

export interface StepFrame {
  index: number;
  total: number;
  timestep: number;
  shape: number[];
  /** absent for a step the page was not sent (a later one came within the frame interval) */
  latents?: Float32Array;
  forwardMs: number;
}

/** what a run copied from the model's outputs to the host: on WebGPU, GPU read-backs */
export interface Readback {
  count: number;
  bytes: number;
}

export interface RunResult {
  shape: number[];
  sample: Float32Array;
  timings: Timings;
  /** the device the output was computed on (after any fallback) */
  provider: Device;
  weights: WeightPrecision;
  /** the sessions the transformer ran in (1: the whole graph) */
  segments: number;
  readback?: Readback;
  /** with `compare`: the same forward in float32, and max|out - float32| / max|float32|; or why that forward failed (the output stands) */
  compared?: { error: number; forwardMs: number } | { failed: string };
}

/** `download`: weight bytes that arrived from the hub so far (the rest came from the cache) */
export type LoadEvent = { type: 'notice'; text: string } | { type: 'download'; loaded: number; total: number };
/** `notice`: the browser cache refused while the run read the weights (sessions are made on the first run) */
export type RunEvent =
  | { type: 'stage'; stage: string }
  | { type: 'fallback'; reason: string }
  | { type: 'notice'; text: string }
  | ({ type: 'step' } & StepFrame);

export type PreviewApi = {
  load: { args: LoadRequest; result: { device: Device; loadMs: number }; event: LoadEvent };
  run: { args: RunRequest; result: RunResult; event: RunEvent };
  /** after a run: the weight chunks the session did not read go into the cache too; true when every file is cached */
  finishCache: { args: null; result: boolean; event: never };
};

export interface FitRequest {
  config: ConsisIDConfig;
  shape: GraphShape;
  device: Device;
  /** the WebGPU adapter's limits and features (device webgpu) */
  adapter: AdapterCaps | null;
  /** the bytes one segment may pass through the heap (default SEGMENT_HEAP_BUDGET) */
  heapBudget?: number;
  /** what the browser can store: converted weights need room there or within the memory budget; absent: not checked */
  storage?: BrowserStorage;
}

export interface ConvertedRequest {
  config: ConsisIDConfig;
  shape: GraphShape;
  device: Device;
  /** the checkpoint's tensors as its headers describe them */
  weights: WeightSet;
}

/** the planner worker: the graph of a full-size config takes a second to plan, away from the page's thread */
export type PlanApi = {
  fit: { args: FitRequest; result: PrecisionFit[]; event: never };
  /** per precision but float32, the bytes the converter writes for the checkpoint (convertedSizes) */
  converted: { args: ConvertedRequest; result: Partial<Record<WeightPrecision, number>>; event: never };
};
