// Lays out the initializers of a model in one external data file (the ONNX external data
// convention: location/offset/length per tensor, 4 KiB aligned), so standalone models over 2 GiB
// can be written. Where each tensor's bytes come from stays with the caller.
import type { ExternalLocation, ModelDef, TensorDef } from './onnx-proto.ts';

const ALIGN = 4096;

export interface DataMove {
  /** where the bytes go in the data file */
  offset: number;
  /** where they come from: inline bytes, or another external location */
  from: Uint8Array | ExternalLocation;
}

export interface ExternalDataLayout {
  model: ModelDef;
  moves: DataMove[];
  dataLength: number;
}

/** every initializer of at least `minBytes` moved to `location`; smaller inline ones stay inline */
export function layoutExternalData(m: ModelDef, location: string, minBytes = 1024): ExternalDataLayout {
  let offset = 0;
  const moves: DataMove[] = [];
  const initializers: TensorDef[] = m.graph.initializers.map((t) => {
    if (t.computed)
      throw new Error(`initializer ${t.name} is computed when a session is made; materialize the model first`);
    const length = t.raw?.length ?? t.external?.length ?? 0;
    if (!t.external && length < minBytes) return t;
    offset = Math.ceil(offset / ALIGN) * ALIGN;
    moves.push({ offset, from: t.raw ?? t.external! });
    const moved: TensorDef = { name: t.name, type: t.type, dims: t.dims, external: { location, offset, length } };
    offset += length;
    return moved;
  });
  return { model: { ...m, graph: { ...m.graph, initializers } }, moves, dataLength: offset };
}
