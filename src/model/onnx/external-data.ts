// Moves large initializers out of the ModelProto into an external data file (the ONNX external
// data convention: location/offset/length per tensor), so models over 2 GiB can be written.
import { encodeModel, type ModelDef, type TensorDef } from './onnx-proto.ts';

const ALIGN = 4096;

export interface ExternalDataModel {
  model: Uint8Array;
  /** data file chunks, written in order at their offsets */
  chunks: { offset: number; bytes: Uint8Array }[];
  dataLength: number;
}

export function withExternalData(m: ModelDef, location: string, minBytes = 1024): ExternalDataModel {
  let offset = 0;
  const chunks: { offset: number; bytes: Uint8Array }[] = [];
  const initializers: TensorDef[] = m.graph.initializers.map((t) => {
    if (!t.raw || t.raw.length < minBytes) return t;
    offset = Math.ceil(offset / ALIGN) * ALIGN;
    chunks.push({ offset, bytes: t.raw });
    const ext: TensorDef = { name: t.name, type: t.type, dims: t.dims, external: { location, offset, length: t.raw.length } };
    offset += t.raw.length;
    return ext;
  });
  return { model: encodeModel({ ...m, graph: { ...m.graph, initializers } }), chunks, dataLength: offset };
}
