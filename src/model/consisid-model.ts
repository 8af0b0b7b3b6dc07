// ConsisIDTransformer3DModel: from_pretrained + forward on onnxruntime, browser-safe (Node adds
// local folders and onnxruntime-node through src/model/node.ts).
import { loadCheckpoint, type Checkpoint, type LoadOptions } from './loader/load-checkpoint.ts';
import { hubSource } from './loader/hub-files.ts';
import type { FileSource } from './loader/file-source.ts';
import { browserEnvironment, type ModelEnvironment } from './environment.ts';
import { buildConsisIDGraph, type BuiltGraph, type GraphShape } from './graph/transformer.ts';
import type { ComputeDtype } from './graph/context.ts';
import { encodeModel } from './onnx/onnx-proto.ts';
import { prepareForward, type ForwardArgs, type ForwardInputs } from './forward-inputs.ts';
import type { ConsisIDConfig } from './config.ts';
import type { HostTensor } from './tensor.ts';
import type { BackendSession, Device, InferenceBackend } from './runtime/types.ts';

export interface FromPretrainedOptions extends LoadOptions {
  subfolder?: string;
  /** compute dtype; float16 where the provider supports it */
  dtype?: ComputeDtype;
  device?: Device;
  revision?: string;
  hubUrl?: string;
  token?: string;
  threads?: number;
  environment?: ModelEnvironment;
  /** read files from here instead of resolving repoIdOrPath */
  source?: FileSource;
}

export interface RuntimeOptions {
  backend: InferenceBackend;
  device: Device;
  dtype: ComputeDtype;
  threads?: number;
}

/** Transformer2DModelOutput */
export interface Transformer2DModelOutput {
  sample: HostTensor;
}

interface CachedSession {
  /** only the shape is kept: the graph's initializers would pin a second copy of the weights */
  outputShape: readonly number[];
  session: BackendSession;
}

const MAX_SESSIONS = 2;

export const graphKey = (s: GraphShape): string => JSON.stringify(s);

export class ConsisIDTransformer3DModel {
  private readonly sessions = new Map<string, Promise<CachedSession>>();

  constructor(
    readonly config: ConsisIDConfig,
    readonly weights: Checkpoint['weights'],
    readonly runtime: RuntimeOptions,
  ) {}

  static async resolveSource(repoIdOrPath: string, opts: FromPretrainedOptions, env: ModelEnvironment): Promise<FileSource> {
    if (opts.source) return opts.source;
    if (!opts.hubUrl) {
      const local = await env.localSource(opts.subfolder ? `${repoIdOrPath.replace(/\/+$/, '')}/${opts.subfolder}` : repoIdOrPath);
      if (local) return local;
    }
    return hubSource({ repoId: repoIdOrPath, hubUrl: opts.hubUrl, revision: opts.revision, subfolder: opts.subfolder, token: opts.token });
  }

  static async fromPretrained(repoIdOrPath: string, opts: FromPretrainedOptions = {}): Promise<ConsisIDTransformer3DModel> {
    const env = opts.environment ?? browserEnvironment;
    const source = await ConsisIDTransformer3DModel.resolveSource(repoIdOrPath, opts, env);
    const checkpoint = await loadCheckpoint(source, { onProgress: opts.onProgress, signal: opts.signal });
    const backend = await env.backend();
    return ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, { backend, device: opts.device ?? env.defaultDevice, dtype: opts.dtype ?? 'float32', threads: opts.threads });
  }

  static fromCheckpoint(checkpoint: Checkpoint, runtime: RuntimeOptions): ConsisIDTransformer3DModel {
    if (!runtime.backend.devices.includes(runtime.device)) {
      throw new Error(`device "${runtime.device}" is not available here; choose one of ${runtime.backend.devices.join(', ')}`);
    }
    return new ConsisIDTransformer3DModel(checkpoint.config, checkpoint.weights, runtime);
  }

  /** the ONNX graph for one set of input shapes */
  buildGraph(shape: GraphShape): BuiltGraph {
    return buildConsisIDGraph(this.config, this.weights, shape, { dtype: this.runtime.dtype });
  }

  private session(shape: GraphShape): Promise<CachedSession> {
    const key = graphKey(shape);
    let s = this.sessions.get(key);
    if (!s) {
      s = (async () => {
        const built = this.buildGraph(shape);
        const bytes = encodeModel(built.model);
        const session = await this.runtime.backend.createSession(bytes, { device: this.runtime.device, ...(this.runtime.threads ? { threads: this.runtime.threads } : {}) });
        return { outputShape: built.outputShape, session };
      })();
      s.catch(() => this.sessions.delete(key));
      this.sessions.set(key, s);
      while (this.sessions.size > MAX_SESSIONS) {
        const [oldKey, old] = this.sessions.entries().next().value as [string, Promise<CachedSession>];
        this.sessions.delete(oldKey);
        void old.then((o) => o.session.release()).catch(() => undefined);
      }
    }
    return s;
  }

  forward(args: ForwardInputs & { return_dict?: true }): Promise<Transformer2DModelOutput>;
  forward(args: ForwardInputs & { return_dict: false }): Promise<[HostTensor]>;
  forward(args: ForwardArgs): Promise<Transformer2DModelOutput | [HostTensor]>;
  async forward(args: ForwardArgs): Promise<Transformer2DModelOutput | [HostTensor]> {
    const prepared = prepareForward(this.config, args);
    const { outputShape, session } = await this.session(prepared.shape);
    const out = await session.run(prepared.feeds);
    const sample = out.sample;
    if (!sample) throw new Error('the session returned no "sample" output');
    const tensor: HostTensor = { dtype: 'float32', shape: [...outputShape], data: sample.data };
    return prepared.returnDict ? { sample: tensor } : [tensor];
  }

  async release(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(async (s) => (await s.catch(() => null))?.session.release()));
  }
}
