// A built graph as a session takes it: checkpoint tensors stay external data where the checkpoint
// files can be handed to the runtime (a path, or bytes already in memory); tensors of files read
// in parts are read one by one; computed tensors (block-quantized weights) are computed here.
import type { ComputedGroup, ExternalLocation, ModelDef, TensorDef } from './onnx/onnx-proto.ts';
import type { CheckpointFiles } from './loader/load-checkpoint.ts';
import type { ExternalDataSource, SessionModel } from './runtime/types.ts';

export async function sessionModel(
  model: ModelDef,
  files: CheckpointFiles,
  opts: { signal?: AbortSignal } = {},
): Promise<SessionModel> {
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
  // a group's outputs are computed once and kept until each of them is taken
  const pending = new Map<ComputedGroup, { outputs: Uint8Array[]; left: number }>();
  const users = new Map<ComputedGroup, number>();
  const named = new Map<ComputedGroup, string>();
  for (const t of model.graph.initializers) {
    if (!t.computed) continue;
    users.set(t.computed.group, (users.get(t.computed.group) ?? 0) + 1);
    if (!named.has(t.computed.group)) named.set(t.computed.group, t.name);
  }
  // the next group's inputs are read while this one computes (a file read runs off the JS thread,
  // a Range request downloads): one group's float weights held ahead, a few MB
  const order = [...users.keys()];
  const after = new Map(order.map((g, i) => [g, order[i + 1]]));
  const reads = new Map<ComputedGroup, Promise<Uint8Array[]>>();
  const readInputs = (group: ComputedGroup): Promise<Uint8Array[]> => {
    let r = reads.get(group);
    if (!r) {
      const tensor = named.get(group)!;
      r = Promise.all(group.inputs.map(async (loc) => read(loc, tensor)));
      // a failure is reported by the group's own await, not as an unhandled rejection before it
      r.catch(() => {});
      reads.set(group, r);
    }
    return r;
  };
  const computed = async (group: ComputedGroup, output: number, tensor: string): Promise<Uint8Array> => {
    let p = pending.get(group);
    if (!p) {
      const inputs = readInputs(group);
      const next = after.get(group);
      if (next) readInputs(next);
      p = { outputs: group.compute(await inputs), left: users.get(group)! };
      reads.delete(group);
      pending.set(group, p);
    }
    if (--p.left === 0) pending.delete(group);
    const data = p.outputs[output];
    if (!data) throw new Error(`initializer ${tensor}: computed output ${output} is missing`);
    return data;
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
      initializers.push(own(t, await computed(t.computed.group, t.computed.output, t.name), 'computed'));
    } else initializers.push(t);
  }
  return { model: { ...model, graph: { ...model.graph, initializers } }, externalData };
}
