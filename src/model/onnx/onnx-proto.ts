// ONNX ModelProto encoding (field numbers from onnx/onnx.proto3).
import type { QuantizedFormat } from '../graph/quantize.ts';
import { MessageWriter, type Encoded, concatEncoded } from './protobuf.ts';

export type ElemType = 'float32' | 'float16' | 'bfloat16' | 'float64' | 'int64' | 'int32' | 'int8' | 'uint8' | 'bool';

export const ELEM_TYPE_CODE: Record<ElemType, number> = {
  float32: 1,
  uint8: 2,
  int8: 3,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  float64: 11,
  bfloat16: 16,
};

export const ELEM_TYPE_BYTES: Record<ElemType, number> = {
  float32: 4,
  uint8: 1,
  int8: 1,
  int32: 4,
  int64: 8,
  bool: 1,
  float16: 2,
  float64: 8,
  bfloat16: 2,
};

export interface ExternalLocation {
  location: string;
  offset: number;
  length: number;
}

/**
 * Tensors made when a session is created from the bytes of other tensors (e.g. block-quantized
 * weights and their scales, from checkpoint weights), so graphs can be built, planned and encoded
 * without reading weights. One group computes several outputs from one read of its inputs.
 */
export interface ComputedGroup {
  inputs: readonly ExternalLocation[];
  compute(inputs: readonly Uint8Array[]): Uint8Array[];
  /** what `compute` makes, said so that a loader holding each tensor quantized already can give the outputs instead */
  quantized?: QuantizedGroup;
}

/** quantized weights of checkpoint tensors stacked along the output axis: outputs q, then scales */
export interface QuantizedGroup {
  format: QuantizedFormat;
  /** each tensor's rows [r0, r1), in stacking order */
  parts: readonly { tensor: string; rows: readonly [number, number] }[];
  /** the input axis */
  k: number;
  /** the scales output's dtype (the quantizer's float32, or float16 for a float16 graph) */
  scales: 'float32' | 'float16';
}

export interface ComputedTensor {
  byteLength: number;
  group: ComputedGroup;
  /** which of the group's outputs */
  output: number;
}

export interface TensorDef {
  name: string;
  type: ElemType;
  dims: readonly number[];
  /** little-endian raw bytes; omitted when `external` or `computed` is set */
  raw?: Uint8Array;
  /** bytes in a file (ONNX external data): checkpoint tensors are referenced where they lie */
  external?: ExternalLocation;
  computed?: ComputedTensor;
}

/** bytes of an initializer, wherever they are */
export const tensorBytes = (t: TensorDef): number => t.raw?.length ?? t.external?.length ?? t.computed?.byteLength ?? 0;

export type AttrValue =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'ints'; value: readonly number[] }
  | { kind: 'floats'; value: readonly number[] }
  | { kind: 'tensor'; value: TensorDef };

export interface NodeDef {
  opType: string;
  domain: string;
  name: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes: Readonly<Record<string, AttrValue>>;
}

export interface ValueInfoDef {
  name: string;
  type: ElemType;
  dims: readonly (number | string)[];
}

export interface GraphDef {
  name: string;
  nodes: readonly NodeDef[];
  initializers: readonly TensorDef[];
  inputs: readonly ValueInfoDef[];
  outputs: readonly ValueInfoDef[];
  /** type and static shape of every node output (the builder's; not encoded: onnxruntime infers its own) */
  valueInfo?: readonly ValueInfoDef[];
}

export interface ModelDef {
  graph: GraphDef;
  opsets: readonly { domain: string; version: number }[];
  irVersion: number;
  producer?: string;
}

function encodeTensor(t: TensorDef): Encoded {
  if (t.computed)
    throw new Error(`initializer ${t.name} is computed when a session is made; materialize the model first`);
  const w = new MessageWriter();
  if (t.dims.length) w.packedInts(1, t.dims);
  w.int(2, ELEM_TYPE_CODE[t.type]);
  w.string(8, t.name);
  if (t.external) {
    const entries: [string, string][] = [
      ['location', t.external.location],
      ['offset', String(t.external.offset)],
      ['length', String(t.external.length)],
    ];
    for (const [k, v] of entries) w.message(13, new MessageWriter().string(1, k).string(2, v).finish());
    w.int(14, 1);
  } else {
    w.bytes(9, t.raw ?? new Uint8Array(0));
  }
  return w.finish();
}

/** AttributeProto: each kind's type code (field 20) and how its value is written (field per kind). */
const ATTR_ENCODING: {
  [K in AttrValue['kind']]: {
    type: number;
    write(w: MessageWriter, value: Extract<AttrValue, { kind: K }>['value']): void;
  };
} = {
  float: { type: 1, write: (w, v) => w.float(2, v) },
  int: { type: 2, write: (w, v) => w.int(3, v) },
  string: { type: 3, write: (w, v) => w.string(4, v) },
  tensor: { type: 4, write: (w, v) => w.message(5, encodeTensor(v)) },
  floats: { type: 6, write: (w, v) => w.packedFloats(7, v) },
  ints: { type: 7, write: (w, v) => w.packedInts(8, v) },
};

function encodeAttribute(name: string, a: AttrValue): Encoded {
  // The table pairs each kind with its own value type; TypeScript cannot follow that through a.kind.
  const { type, write } = ATTR_ENCODING[a.kind] as {
    type: number;
    write(w: MessageWriter, value: AttrValue['value']): void;
  };
  const w = new MessageWriter().string(1, name).int(20, type);
  write(w, a.value);
  return w.finish();
}

function encodeNode(n: NodeDef): Encoded {
  const w = new MessageWriter();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, n.name).string(4, n.opType);
  for (const [k, v] of Object.entries(n.attributes)) w.message(5, encodeAttribute(k, v));
  if (n.domain) w.string(7, n.domain);
  return w.finish();
}

function encodeValueInfo(v: ValueInfoDef): Encoded {
  const shape = new MessageWriter();
  for (const d of v.dims) {
    shape.message(
      1,
      typeof d === 'number' ? new MessageWriter().int(1, d).finish() : new MessageWriter().string(2, d).finish(),
    );
  }
  const tensorType = new MessageWriter().int(1, ELEM_TYPE_CODE[v.type]).message(2, shape.finish()).finish();
  const type = new MessageWriter().message(1, tensorType).finish();
  return new MessageWriter().string(1, v.name).message(2, type).finish();
}

function encodeGraph(g: GraphDef): Encoded {
  const w = new MessageWriter();
  for (const n of g.nodes) w.message(1, encodeNode(n));
  w.string(2, g.name);
  for (const t of g.initializers) w.message(5, encodeTensor(t));
  for (const i of g.inputs) w.message(11, encodeValueInfo(i));
  for (const o of g.outputs) w.message(12, encodeValueInfo(o));
  return w.finish();
}

/** protobuf messages, and so in-memory ONNX models, stop at 2 GiB */
export const MAX_PROTO_BYTES = 2 ** 31 - 1;

export function encodeModel(m: ModelDef): Uint8Array {
  const weights = m.graph.initializers.reduce((s, t) => s + (t.raw?.length ?? 0), 0);
  if (weights > MAX_PROTO_BYTES) {
    throw new Error(
      `the graph's inline weights (${(weights / 2 ** 30).toFixed(2)} GiB) exceed the 2 GiB ONNX protobuf limit: keep them as external data (consisid export --external-data)`,
    );
  }
  const w = new MessageWriter().int(1, m.irVersion);
  w.string(2, m.producer ?? 'hub-console');
  w.message(7, encodeGraph(m.graph));
  for (const o of m.opsets) {
    const os = new MessageWriter();
    if (o.domain) os.string(1, o.domain);
    os.int(2, o.version);
    w.message(8, os.finish());
  }
  return concatEncoded(w.finish());
}
