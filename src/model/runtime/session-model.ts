// A built graph as a session takes it: checkpoint tensors stay external data where the checkpoint
// files can be handed to the runtime (a path, or bytes already in memory); tensors of files read
// in parts are read one by one; computed tensors (block-quantized weights) are computed here
// (computed-weights.ts), unless `precomputed` has them made already (weights converted as they
// downloaded, convert/converted-checkpoint.ts). Every initializer is taken in the graph's order, one after the other.
import { ComputedWeights, type Precomputed } from '../onnx/computed-weights.ts';
import type { ExternalLocation, ModelDef, TensorDef } from '../onnx/onnx-proto.ts';
import type { CheckpointFile, CheckpointFiles } from '../io/checkpoint-file.ts';
import type { ExternalDataSource, SessionModel } from './types.ts';

export interface SessionModelOptions {
  signal?: AbortSignal;
  /**
   * Read the tensors of files held as Blobs one by one instead of handing the runtime the whole
   * file: onnxruntime-web reads a Blob whole into memory, where a segment needs only its own
   * tensors' bytes (a checkpoint shard is several GB).
   */
  blobsInParts?: boolean;
  /** quantized outputs made already (weights converted as they downloaded) */
  precomputed?: Precomputed;
}

export async function sessionModel(
  model: ModelDef,
  files: CheckpointFiles,
  opts: SessionModelOptions = {},
): Promise<SessionModel> {
  const data = new ExternalData(files, opts.signal, opts.blobsInParts === true);
  const computed = new ComputedWeights(
    model.graph.initializers,
    (loc, tensor) => data.read(loc, tensor),
    opts.precomputed,
  );
  const initializers: TensorDef[] = [];
  for (const t of model.graph.initializers) {
    if (t.external) initializers.push(await data.reference(t, t.external));
    else if (t.computed)
      initializers.push(data.own(t, await computed.take(t.computed.group, t.computed.output, t.name), 'computed'));
    else initializers.push(t);
  }
  return { model: { ...model, graph: { ...model.graph, initializers } }, externalData: data.sources };
}

/** how the runtime can take a whole checkpoint file; null when it can only be read in parts */
function wholeFile(f: CheckpointFile, blobsInParts: boolean): ExternalDataSource | null {
  if (f.path) return { kind: 'path', path: f.path };
  if (f.bytes) return { kind: 'bytes', data: f.bytes };
  if (f.blob && !blobsInParts) return { kind: 'blob', data: f.blob() };
  return null;
}

/** the session's external data, by location: checkpoint files, and bytes read or computed here */
class ExternalData {
  readonly sources = new Map<string, ExternalDataSource>();

  constructor(
    private readonly files: CheckpointFiles,
    private readonly signal: AbortSignal | undefined,
    private readonly blobsInParts: boolean,
  ) {}

  /** a checkpoint tensor, referenced in its file where the runtime takes the file, else read into a location of its own */
  async reference(t: TensorDef, loc: ExternalLocation): Promise<TensorDef> {
    const f = this.file(loc, t.name);
    const whole = wholeFile(f, this.blobsInParts);
    if (!whole) return this.own(t, await this.read(loc, t.name), 'tensor');
    this.sources.set(f.name, whole);
    return t;
  }

  read(loc: ExternalLocation, tensor: string): Promise<Uint8Array> {
    this.signal?.throwIfAborted();
    return this.file(loc, tensor).read(loc.offset, loc.length);
  }

  /** the tensor's bytes at a location of their own */
  own(t: TensorDef, data: Uint8Array, kind: string): TensorDef {
    const location = `${kind}-${this.sources.size}.bin`;
    this.sources.set(location, { kind: 'bytes', data });
    return { name: t.name, type: t.type, dims: t.dims, external: { location, offset: 0, length: data.length } };
  }

  private file(loc: ExternalLocation, tensor: string): CheckpointFile {
    const f = this.files.get(loc.location);
    if (!f) throw new Error(`initializer ${tensor} refers to ${loc.location}, which is not a file of this checkpoint`);
    return f;
  }
}
