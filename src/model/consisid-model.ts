// ConsisIDTransformer3DModel: from_pretrained + forward on onnxruntime, browser-safe (Node adds
// local folders and onnxruntime-node through src/model/node.ts).
import { loadCheckpoint, type Checkpoint, type LoadOptions } from './loader/load-checkpoint.ts';
import { HubFileError, hubSource } from './loader/hub-files.ts';
import type { FileSource } from './loader/file-source.ts';
import { browserEnvironment, type ModelEnvironment } from './environment.ts';
import {
  buildConsisIDGraph,
  type BlockRange,
  type BuildOptions,
  type BuiltGraph,
  type GraphShape,
} from './graph/transformer.ts';
import { buildConsisIDSegments, checkSegmentCount } from './graph/segments.ts';
import { createSegmentedSession } from './segmented-session.ts';
import { planSegments, type SegmentChoice } from './segment-plan.ts';
import type { WebGpuLimits } from './plan.ts';
import type { ComputeDtype } from './graph/context.ts';
import { sessionModel } from './session-model.ts';
import { memoizePromise } from './memoize-promise.ts';
import { prepareForward, type ForwardArgs, type ForwardInputs } from './forward-inputs.ts';
import type { ConsisIDConfig } from './config.ts';
import type { HostTensor } from './tensor.ts';
import type { BackendSession, Device, InferenceBackend, SessionOptions } from './runtime/types.ts';
import { deviceForward, type DeviceForward } from './device-forward.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from './precision.ts';
import type { AttentionKernel } from './graph/context.ts';
import type { WeightConverter } from './convert/weight-converter.ts';
import { convertedWeights, type GraphWeights } from './convert/converted-session.ts';
import type { WeightSet } from './safetensors/weight-set.ts';

/** the stages of a first forward: reading the weights, building the graph, creating the session, running it */
export type ModelStage = 'weights' | 'graph' | 'session' | 'forward';

export type StageEvent =
  | { stage: ModelStage; state: 'start'; device: Device }
  | { stage: ModelStage; state: 'end'; device: Device; ms: number };

export interface FallbackEvent {
  from: Device;
  to: Device;
  /** why the first device failed */
  reason: string;
}

export interface ModelEvents {
  /** each stage's start, and its end with the time it took */
  onStage?: (e: StageEvent) => void;
  /** the session could not be created on the device and was created on the fallback device */
  onFallback?: (e: FallbackEvent) => void;
  /** a segmented session: segment `index` (from 0) of `count` starts, its weights read and its session made */
  onSegment?: (e: SegmentEvent) => void;
}

export interface SegmentEvent {
  index: number;
  count: number;
  device: Device;
}

/** the transformer as several sessions of consecutive blocks (docs/model-segments.md) */
export interface SegmentOptions {
  /** off (default): one session; 'auto': as few segments as fit `segmentLimits`; n: n segments of equal block counts */
  segments?: SegmentChoice;
  /** what 'auto' fits each segment to: the WebGPU adapter's limits and the weight bytes one segment may pass through the heap */
  segmentLimits?: { gpu?: WebGpuLimits; heapBudget?: number };
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
  /** read files from here instead of resolving repoIdOrPath */
  source?: FileSource;
  /** converts the weights for a precision other than float32 as they download, kept per precision (hub sources) */
  converter?: WeightConverter;
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
  /** converts the weights for a precision other than float32 as they download, kept per precision (hub sources) */
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

interface PreparedGraph {
  outputShape: readonly number[];
  /** creates its session (or its segments' sessions, one after another) */
  open(opts: SessionOptions): Promise<BackendSession>;
}

interface CachedSession extends SessionInfo {
  /** only the shape is kept: the graph's initializers would pin a second copy of the weights */
  session: BackendSession;
}

const DEFAULT_MAX_SESSIONS = 2;

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

function checkSegmentChoice(choice: SegmentChoice | undefined, layers?: number): void {
  if (typeof choice === 'number') checkSegmentCount(choice, layers);
  else if (choice !== undefined && choice !== 'auto')
    throw new RangeError(`segments: "${String(choice)}" is neither "auto" nor a number of segments`);
}

const graphKey = (s: GraphShape): string => JSON.stringify(s);

/** calls both listeners (model-wide, then per call) */
function mergeEvents(a: ModelEvents, b: ModelEvents | undefined): ModelEvents {
  if (!b) return a;
  return {
    onStage: (e) => {
      a.onStage?.(e);
      b.onStage?.(e);
    },
    onFallback: (e) => {
      a.onFallback?.(e);
      b.onFallback?.(e);
    },
    onSegment: (e) => {
      a.onSegment?.(e);
      b.onSegment?.(e);
    },
  };
}

async function timedStage<T>(
  events: ModelEvents,
  stage: ModelStage,
  device: Device,
  fn: () => Promise<T> | T,
): Promise<T> {
  events.onStage?.({ stage, state: 'start', device });
  const t0 = performance.now();
  const out = await fn();
  events.onStage?.({ stage, state: 'end', device, ms: performance.now() - t0 });
  return out;
}

export class ConsisIDTransformer3DModel {
  private readonly sessions = new Map<string, Promise<CachedSession>>();
  private currentDevice: Device;
  readonly config: ConsisIDConfig;
  readonly weights: Checkpoint['weights'];

  constructor(
    private readonly checkpoint: Checkpoint,
    private runtime: RuntimeOptions,
  ) {
    this.config = checkpoint.config;
    this.weights = checkpoint.weights;
    this.currentDevice = runtime.device;
  }

  /** the device new sessions are created on: the requested one, or the fallback after it failed */
  get device(): Device {
    return this.currentDevice;
  }

  get dtype(): ComputeDtype {
    return this.runtime.dtype;
  }

  /** how the weights are held: a float16 compute holds them in float16 whatever `weights` said */
  get weightPrecision(): WeightPrecision {
    const weights = this.runtime.weights ?? 'float32';
    return weights === 'float32' && this.runtime.dtype === 'float16' ? 'float16' : weights;
  }

  static async resolveSource(
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
    return hubSource({
      repoId: repoIdOrPath,
      hubUrl: opts.hubUrl,
      revision: opts.revision,
      subfolder: opts.subfolder,
      token: opts.token,
    });
  }

  static async fromPretrained(
    repoIdOrPath: string,
    opts: FromPretrainedOptions = {},
  ): Promise<ConsisIDTransformer3DModel> {
    const env = opts.environment ?? browserEnvironment;
    const device = opts.device ?? env.defaultDevice;
    const weights = opts.weights ?? 'float32';
    // before anything is read: a bad option fails without a download
    const dtype = computeDtypeFor(weights, opts.dtype);
    checkSegmentChoice(opts.segments);
    const source = await ConsisIDTransformer3DModel.resolveSource(repoIdOrPath, opts, env);
    const checkpoint = await timedStage(opts, 'weights', device, () =>
      loadCheckpoint(source, { onProgress: opts.onProgress, signal: opts.signal }),
    );
    const backend = await env.backend();
    const passed = Object.fromEntries(
      PASSED_RUNTIME_OPTIONS.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]]),
    ) as Pick<RuntimeOptions, (typeof PASSED_RUNTIME_OPTIONS)[number]>;
    return ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, {
      backend,
      device,
      dtype,
      weights,
      converter: opts.converter,
      ...passed,
    });
  }

  static fromCheckpoint(checkpoint: Checkpoint, runtime: RuntimeOptions): ConsisIDTransformer3DModel {
    computeDtypeFor(runtime.weights ?? 'float32', runtime.dtype);
    checkSegmentChoice(runtime.segments, checkpoint.config.num_layers);
    for (const d of [runtime.device, runtime.fallbackDevice]) {
      if (d && !runtime.backend.devices.includes(d))
        throw new Error(`device "${d}" is not available here; choose one of ${runtime.backend.devices.join(', ')}`);
    }
    return new ConsisIDTransformer3DModel(checkpoint, runtime);
  }

  /** the ONNX graph for one set of input shapes, with the ops the device runs fastest (and exactly) */
  buildGraph(shape: GraphShape, device: Device = this.currentDevice, weights: WeightSet = this.weights): BuiltGraph {
    return buildConsisIDGraph(this.config, weights, shape, this.buildOptions(device));
  }

  private buildOptions(device: Device): BuildOptions {
    const quantization = quantizationFor(this.weightPrecision, device);
    const attention = device === 'webgpu' ? (this.runtime.webgpuAttention ?? 'fused') : 'fused';
    return { dtype: this.runtime.dtype, quantization, attention, widenBfloat16: device === 'webgpu' };
  }

  /** the segments' block ranges for these shapes on `device`, or null for one session */
  segmentsFor(shape: GraphShape, device: Device = this.currentDevice): BlockRange[] | null {
    const { segments: choice, segmentLimits: limits } = this.runtime;
    if (choice === undefined) return null;
    const planned = planSegments(this.config, shape, {
      device,
      weights: this.weightPrecision,
      segments: choice,
      limits: limits?.gpu,
      heapBudget: limits?.heapBudget,
      weightSet: this.weights,
      attention: this.buildOptions(device).attention,
    }).segments.map(({ from, to }) => ({ from, to }));
    return planned.length > 1 ? planned : null;
  }

  /** what graphs are built over: the checkpoint's tensors, or the same converted for the precision as they download */
  private async graphWeights(shape: GraphShape, device: Device): Promise<GraphWeights> {
    const { converter } = this.runtime;
    const precision = this.weightPrecision;
    if (!converter || precision === 'float32') return { weights: this.weights, files: this.checkpoint.files };
    return convertedWeights(this.buildGraph(shape, device).model, this.checkpoint, precision, converter);
  }

  /** devices whose graphs are the same (the quantized ops and the attention may differ on WebGPU) */
  private sameGraph(a: Device, b: Device): boolean {
    if ((a === 'webgpu') === (b === 'webgpu')) return true;
    return quantizationFor(this.weightPrecision, a) === null && this.runtime.webgpuAttention !== 'decomposed';
  }

  /** asks the backend once how this adapter runs attention exactly, before the first WebGPU graph */
  private async resolveWebgpuAttention(device: Device): Promise<void> {
    if (device !== 'webgpu' || this.runtime.webgpuAttention) return;
    this.runtime = { ...this.runtime, webgpuAttention: (await this.runtime.backend.webgpuAttention?.()) ?? 'fused' };
  }

  /**
   * The graph (or the segments' graphs) for these shapes, and how to make its session. One graph's
   * weights are taken here; segments' are taken each in its turn while their sessions are made.
   */
  private async graphFor(shape: GraphShape, device: Device, events: ModelEvents): Promise<PreparedGraph> {
    return timedStage(events, 'graph', device, async () => {
      await this.resolveWebgpuAttention(device);
      const { backend } = this.runtime;
      const { weights, files, precomputed } = await this.graphWeights(shape, device);
      const segments = this.segmentsFor(shape, device);
      if (segments) {
        const built = buildConsisIDSegments(this.config, weights, shape, segments, this.buildOptions(device));
        return {
          outputShape: built.at(-1)!.outputShape,
          open: (opts) =>
            createSegmentedSession(
              built.map((b, index) => () => {
                events.onSegment?.({ index, count: built.length, device: opts.device });
                return sessionModel(b.model, files, { blobsInParts: true, precomputed });
              }),
              // a segment's outputs feed the next one: where the sample stays on the device, so do they
              (model) =>
                backend.createSession(model, {
                  ...opts,
                  ...(opts.deviceOutputs ? { deviceOutputs: model.model.graph.outputs.map((o) => o.name) } : {}),
                }),
            ),
        };
      }
      const built = this.buildGraph(shape, device, weights);
      const model = await sessionModel(built.model, files, { precomputed });
      return { outputShape: built.outputShape, open: (opts) => backend.createSession(model, opts) };
    });
  }

  /** builds and creates the session on the model's device, or on the fallback device when that fails */
  private async createSession(shape: GraphShape, events: ModelEvents): Promise<CachedSession> {
    const { threads, prepack } = this.runtime;
    const options = {
      ...(threads ? { threads } : {}),
      ...(prepack === undefined ? {} : { prepack }),
      float16: this.runtime.dtype === 'float16',
      ...(this.runtime.keepOnDevice ? { deviceOutputs: ['sample'] } : {}),
    };
    const device = this.currentDevice;
    const graph = await this.graphFor(shape, device, events);
    try {
      const session = await timedStage(events, 'session', device, () => graph.open({ device, ...options }));
      return { session, device, shape, outputShape: graph.outputShape };
    } catch (e) {
      const to = this.runtime.fallbackDevice;
      // weights the hub failed to deliver fail on any device: the fallback is for the device's own failures
      if (!to || to === device || e instanceof HubFileError) throw e;
      events.onFallback?.({ from: device, to, reason: e instanceof Error ? e.message : String(e) });
      this.currentDevice = to;
      // segments are planned per device (the WASM heap keeps them all, WebGPU buffers have limits)
      const same = this.sameGraph(device, to) && this.runtime.segments === undefined;
      const { open, outputShape } = same ? graph : await this.graphFor(shape, to, events);
      const session = await timedStage(events, 'session', to, () => open({ device: to, ...options }));
      return { session, device: to, shape, outputShape };
    }
  }

  /** the session for these inputs' shapes: built and created on first use, then cached */
  async session(args: ForwardArgs, events?: ModelEvents): Promise<SessionInfo> {
    const { device, shape, outputShape } = await this.cachedSession(
      prepareForward(this.config, args).shape,
      mergeEvents(this.runtime, events),
    );
    return { device, shape, outputShape };
  }

  private cachedSession(shape: GraphShape, events: ModelEvents): Promise<CachedSession> {
    const key = graphKey(shape);
    const s = memoizePromise(this.sessions, key, () => this.createSession(shape, events));
    while (this.sessions.size > (this.runtime.maxSessions ?? DEFAULT_MAX_SESSIONS)) {
      const [oldKey, old] = this.sessions.entries().next().value as [string, Promise<CachedSession>];
      this.sessions.delete(oldKey);
      void old.then((o) => o.session.release()).catch(() => undefined);
    }
    return s;
  }

  forward(args: ForwardInputs & { return_dict?: true }, events?: ModelEvents): Promise<Transformer2DModelOutput>;
  forward(args: ForwardInputs & { return_dict: false }, events?: ModelEvents): Promise<[HostTensor]>;
  forward(args: ForwardArgs, events?: ModelEvents): Promise<Transformer2DModelOutput | [HostTensor]>;
  async forward(args: ForwardArgs, events?: ModelEvents): Promise<Transformer2DModelOutput | [HostTensor]> {
    const prepared = prepareForward(this.config, args);
    const all = mergeEvents(this.runtime, events);
    const { outputShape, session, device } = await this.cachedSession(prepared.shape, all);
    const out = await timedStage(all, 'forward', device, () => session.run(prepared.feeds));
    const sample = out.sample;
    if (!sample) throw new Error('the session returned no "sample" output');
    const tensor: HostTensor = { dtype: 'float32', shape: [...outputShape], data: sample.data };
    return prepared.returnDict ? { sample: tensor } : [tensor];
  }

  /**
   * The forward for `args` with its inputs uploaded to the model's device once, to run step after
   * step with some inputs replaced (latents, timestep): its sample stays on the device where the
   * model was made with `keepOnDevice` (WebGPU), else it is host data behind the same interface.
   */
  async deviceForward(args: ForwardArgs, events?: ModelEvents): Promise<DeviceForward> {
    const prepared = prepareForward(this.config, args);
    const all = mergeEvents(this.runtime, events);
    const { session, device } = await this.cachedSession(prepared.shape, all);
    return deviceForward(session, prepared.feeds, {
      run: (fn) => timedStage(all, 'forward', device, fn),
      createSession: (model, deviceOutputs) =>
        this.runtime.backend.createSession({ model, externalData: new Map() }, { device, deviceOutputs }),
    });
  }

  async release(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(async (s) => (await s.catch(() => null))?.session.release()));
  }
}
