// ConsisIDTransformer3DModel: from_pretrained + forward on onnxruntime, browser-safe (Node adds
// local folders and onnxruntime-node through src/model/node.ts). Loading is linear: resolve the
// source, read the checkpoint's config and headers, open the backend; a session per input shape is
// made on first use (consisid-graphs.ts) on the device or its fallback.
import { loadCheckpoint, type Checkpoint } from './load-checkpoint.ts';
import { ConsisIDGraphs } from './consisid-graphs.ts';
import {
  checkSegmentChoice,
  passedRuntimeOptions,
  resolveSource,
  sessionOptions,
  type FromPretrainedOptions,
  type RuntimeOptions,
  type SessionInfo,
  type Transformer2DModelOutput,
} from './model-options.ts';
import { prepareForward, type ForwardArgs, type ForwardInputs } from './forward-inputs.ts';
import type { FileSource } from '../../io/file-source.ts';
import { conversionOf } from '../../convert/converted-source.ts';
import type { HostTensor } from '../../io/tensor.ts';
import type { ConsisIDConfig } from '../../graph/config.ts';
import type { ComputeDtype } from '../../graph/context.ts';
import type { BlockRange, BuiltGraph, GraphShape } from '../../graph/transformer.ts';
import type { WeightSet } from '../../io/safetensors/weight-set.ts';
import { browserEnvironment, type ModelEnvironment } from '../../runtime/environment.ts';
import { mergeEvents, timedStage, type ModelEvents } from '../../runtime/events.ts';
import { SessionCache } from '../../runtime/session-cache.ts';
import { onDeviceOrFallback } from '../../runtime/device-fallback.ts';
import { deviceForward, type DeviceForward } from '../../runtime/device-forward.ts';
import type { BackendSession, Device } from '../../runtime/types.ts';
import { computeDtypeFor, type WeightPrecision } from '../../plan/precision.ts';

interface CachedSession extends SessionInfo {
  /** only the shape is kept: the graph's initializers would pin a second copy of the weights */
  session: BackendSession;
}

export class ConsisIDTransformer3DModel {
  private readonly sessions = new SessionCache<CachedSession>(() => this.runtime.maxSessions ?? 2);
  private readonly graphs: ConsisIDGraphs;
  private currentDevice: Device;
  readonly config: ConsisIDConfig;
  readonly weights: Checkpoint['weights'];

  constructor(
    checkpoint: Checkpoint,
    private readonly runtime: RuntimeOptions,
  ) {
    this.config = checkpoint.config;
    this.weights = checkpoint.weights;
    this.currentDevice = runtime.device;
    const weights = runtime.weights ?? 'float32';
    // a float16 compute holds the weights in float16 whatever `weights` said
    this.graphs = new ConsisIDGraphs(
      checkpoint,
      runtime,
      weights === 'float32' && runtime.dtype === 'float16' ? 'float16' : weights,
    );
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
    return this.graphs.precision;
  }

  /** the files of `repoIdOrPath`: the given source, a local folder, or the hub */
  /** the files of `repoIdOrPath`: the given source, a local folder, or the hub */
  static resolveSource(repoIdOrPath: string, opts: FromPretrainedOptions, env: ModelEnvironment): Promise<FileSource> {
    return resolveSource(repoIdOrPath, opts, env);
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
    const conversion = conversionOf(source, weights);
    const checkpoint = await timedStage(opts, 'weights', device, () =>
      loadCheckpoint(source, { onProgress: opts.onProgress, signal: opts.signal }),
    );
    const backend = await env.backend();
    return ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, {
      backend,
      device,
      dtype,
      weights,
      ...passedRuntimeOptions(opts),
      ...conversion,
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
  buildGraph(shape: GraphShape, device: Device = this.currentDevice, weights?: WeightSet): BuiltGraph {
    return this.graphs.build(shape, device, weights);
  }

  /** the segments' block ranges for these shapes on `device`, or null for one session */
  segmentsFor(shape: GraphShape, device: Device = this.currentDevice): BlockRange[] | null {
    return this.graphs.segmentsFor(shape, device);
  }

  /** builds and creates the session on the model's device, or on the fallback device when that fails */
  private async createSession(shape: GraphShape, events: ModelEvents): Promise<CachedSession> {
    const options = sessionOptions(this.runtime);
    const first = this.currentDevice;
    const graph = await this.graphs.prepare(shape, first, events);
    const { value, device } = await onDeviceOrFallback(first, this.runtime.fallbackDevice, events, async (d) => {
      const g = d === first || this.graphs.same(first, d) ? graph : await this.graphs.prepare(shape, d, events);
      const session = await timedStage(events, 'session', d, () => g.open({ device: d, ...options }));
      return { session, outputShape: g.outputShape };
    });
    this.currentDevice = device;
    return { ...value, device, shape };
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
    return this.sessions.get(JSON.stringify(shape), () => this.createSession(shape, events));
  }

  forward(args: ForwardInputs & { return_dict?: true }, events?: ModelEvents): Promise<Transformer2DModelOutput>;
  forward(args: ForwardInputs & { return_dict: false }, events?: ModelEvents): Promise<[HostTensor]>;
  forward(args: ForwardArgs, events?: ModelEvents): Promise<Transformer2DModelOutput | [HostTensor]>;
  async forward(args: ForwardArgs, events?: ModelEvents): Promise<Transformer2DModelOutput | [HostTensor]> {
    const prepared = prepareForward(this.config, args);
    const all = mergeEvents(this.runtime, events);
    const { outputShape, session, device } = await this.cachedSession(prepared.shape, all);
    const out = await timedStage(all, 'forward', device, () => session.run(prepared.feeds));
    if (!out.sample) throw new Error('the session returned no "sample" output');
    const tensor: HostTensor = { dtype: 'float32', shape: [...outputShape], data: out.sample.data };
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

  release(): Promise<void> {
    return this.sessions.release();
  }
}
