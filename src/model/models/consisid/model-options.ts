// What ConsisIDTransformer3DModel is opened with: the options of fromPretrained (where the files
// are, which device and precision) and the runtime options a model keeps (its backend, and what
// fromPretrained hands on as it was given).
import type { LoadOptions } from './load-checkpoint.ts';
import type { FileSource } from '../../io/file-source.ts';
import { hubSource } from '../../io/hub-files.ts';
import type { HostTensor } from '../../io/tensor.ts';
import type { ModelEnvironment } from '../../runtime/environment.ts';
import type { ModelEvents } from '../../runtime/events.ts';
import type { Device, InferenceBackend, SessionOptions } from '../../runtime/types.ts';
import type { GraphShape } from '../../graph/transformer.ts';
import { checkSegmentCount } from '../../graph/segments.ts';
import type { AttentionKernel, ComputeDtype } from '../../graph/context.ts';
import type { SegmentChoice } from '../../plan/segment-plan.ts';
import type { WebGpuLimits } from '../../plan/plan.ts';
import type { WeightPrecision } from '../../plan/precision.ts';
import type { WeightConverter } from '../../convert/weight-converter.ts';

/** the transformer as several sessions of consecutive blocks (docs/model-segments.md) */
export interface SegmentOptions {
  /** off (default): one session; 'auto': as few segments as fit `segmentLimits`; n: n segments of equal block counts */
  segments?: SegmentChoice;
  /** what 'auto' fits each segment to: the WebGPU adapter's limits (the spec's defaults for those not given) and the weight bytes one segment may pass through the heap */
  segmentLimits?: { gpu?: Partial<WebGpuLimits>; heapBudget?: number };
}

export interface FromPretrainedOptions extends LoadOptions, ModelEvents, SegmentOptions {
  subfolder?: string;
  /** how the large Linear layers hold their weights (default float32; int8/int4 are quantized when a session is made) */
  weights?: WeightPrecision;
  /** how WebGPU graphs write attention (default: what the backend says the adapter runs exactly, else fused) */
  webgpuAttention?: AttentionKernel;
  /** compute dtype; float16 where the provider supports it (the same as weights float16) */
  dtype?: ComputeDtype;
  device?: Device;
  /** where sessions go when `device` cannot create one (e.g. "webgpu" -> "wasm") */
  fallbackDevice?: Device;
  /** sessions kept for different input shapes (default 2); the oldest is released */
  maxSessions?: number;
  revision?: string;
  hubUrl?: string;
  token?: string;
  threads?: number;
  /** rearrange weights for the CPU kernels when a session is made (default: on cpu yes, on wasm no; see SessionOptions.prepack) */
  prepack?: boolean;
  environment?: ModelEnvironment;
  /** read files from here instead of resolving repoIdOrPath (a convertedSource: the weights converted as they download) */
  source?: FileSource;
  /** sessions leave `sample` on the device (WebGPU) for deviceForward(); forward() reads it back */
  keepOnDevice?: boolean;
}

export interface RuntimeOptions extends ModelEvents, SegmentOptions {
  backend: InferenceBackend;
  device: Device;
  dtype: ComputeDtype;
  weights?: WeightPrecision;
  webgpuAttention?: AttentionKernel;
  threads?: number;
  prepack?: boolean;
  fallbackDevice?: Device;
  maxSessions?: number;
  /** converts the weights for a precision other than float32 as they download (the source's, when it is a convertedSource) */
  converter?: WeightConverter;
  keepOnDevice?: boolean;
}

/** Transformer2DModelOutput */
export interface Transformer2DModelOutput {
  sample: HostTensor;
}

/** what a created session runs on */
export interface SessionInfo {
  device: Device;
  shape: GraphShape;
  outputShape: readonly number[];
}

/** what fromPretrained hands on to the runtime as it was given */
const PASSED_RUNTIME_OPTIONS = [
  'webgpuAttention',
  'threads',
  'prepack',
  'fallbackDevice',
  'maxSessions',
  'onStage',
  'onFallback',
  'onSegment',
  'segments',
  'segmentLimits',
  'keepOnDevice',
] as const satisfies readonly (keyof FromPretrainedOptions & keyof RuntimeOptions)[];

/** the options of `opts` the runtime takes as they are (those given) */
export const passedRuntimeOptions = (opts: FromPretrainedOptions) =>
  Object.fromEntries(PASSED_RUNTIME_OPTIONS.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])) as Pick<
    RuntimeOptions,
    (typeof PASSED_RUNTIME_OPTIONS)[number]
  >;

/** a segment choice is 'auto' or a count the model's layers divide into */
export function checkSegmentChoice(choice: SegmentChoice | undefined, layers?: number): void {
  if (typeof choice === 'number') checkSegmentCount(choice, layers);
  else if (choice !== undefined && choice !== 'auto')
    throw new RangeError(`segments: "${String(choice)}" is neither "auto" nor a number of segments`);
}

/** the files of `repoIdOrPath`: the given source, a local folder (without a hub URL), or the hub */
export async function resolveSource(
  repoIdOrPath: string,
  opts: FromPretrainedOptions,
  env: ModelEnvironment,
): Promise<FileSource> {
  if (opts.source) return opts.source;
  if (!opts.hubUrl) {
    const local = await env.localSource(
      opts.subfolder ? `${repoIdOrPath.replace(/\/+$/, '')}/${opts.subfolder}` : repoIdOrPath,
    );
    if (local) return local;
  }
  const { hubUrl, revision, subfolder, token } = opts;
  return hubSource({ repoId: repoIdOrPath, hubUrl, revision, subfolder, token });
}

/** what every session of the model is made with, but its device */
export const sessionOptions = ({
  threads,
  prepack,
  keepOnDevice,
  dtype,
}: RuntimeOptions): Omit<SessionOptions, 'device'> => ({
  ...(threads ? { threads } : {}),
  ...(prepack === undefined ? {} : { prepack }),
  float16: dtype === 'float16',
  ...(keepOnDevice ? { deviceOutputs: ['sample'] } : {}),
});
