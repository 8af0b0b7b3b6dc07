// A built graph as a session takes it: checkpoint tensors stay external data where the checkpoint
// files can be handed to the runtime (a path, or bytes already in memory); tensors of files read
// in parts are read one by one; computed tensors (block-quantized weights) are computed here.
import type { ExternalLocation, ModelDef, TensorDef } from './onnx/onnx-proto.ts';
import type { CheckpointFiles } from './loader/load-checkpoint.ts';
import type { ExternalDataSource, SessionModel } from './runtime/types.ts';

export async function sessionModel(model: ModelDef, files: CheckpointFiles, opts: { signal?: AbortSignal } = {}): Promise<SessionModel> {
  const externalData = new Map<string, ExternalDataSource>();
  const file = (loc: ExternalLocation, tensor: string) => {
    const f = files.get(loc.location);
    if (!f) throw new Error(`initializer ${tensor} refers to ${loc.location}, which is not a file of this checkpoint`);
    return f;
  };
  const read = (loc: ExternalLocation, tensor: string) => {
    opts.signal?.throwIfAborted();
    return file(loc, tensor).read(loc.offset, loc.length);
  };
  const own = (t: TensorDef, data: Uint8Array, kind: string): TensorDef => {
    const location = `${kind}-${externalData.size}.bin`;
    externalData.set(location, { kind: 'bytes', data });
    return { name: t.name, type: t.type, dims: t.dims, external: { location, offset: 0, length: data.length } };
  };
  const initializers: TensorDef[] = [];
  for (const t of model.graph.initializers) {
    if (t.external) {
      const f = file(t.external, t.name);
      if (f.path) externalData.set(f.name, { kind: 'path', path: f.path });
      else if (f.bytes) externalData.set(f.name, { kind: 'bytes', data: f.bytes });
      else if (f.blob) externalData.set(f.name, { kind: 'blob', data: f.blob() });
      else {
        initializers.push(own(t, await read(t.external, t.name), 'tensor'));
        continue;
      }
      initializers.push(t);
    } else if (t.computed) {
      const inputs: Uint8Array[] = [];
      for (const loc of t.computed.inputs) inputs.push(await read(loc, t.name));
      initializers.push(own(t, t.computed.compute(inputs), 'computed'));
    } else initializers.push(t);
  }
  return { model: { ...model, graph: { ...model.graph, initializers } }, externalData };
}
