// Op helpers with static shape inference on top of GraphBuilder.
import { attr, MS_DOMAIN, type GraphBuilder, type Value } from './graph-builder.ts';
import { ELEM_TYPE_CODE, type ElemType } from './onnx-proto.ts';

const prod = (xs: readonly number[]): number => xs.reduce((a, b) => a * b, 1);

function normAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) throw new Error(`axis ${axis} out of range for rank ${rank}`);
  return a;
}

export function broadcastDims(a: readonly number[], b: readonly number[]): number[] {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) throw new Error(`cannot broadcast [${a.join(',')}] with [${b.join(',')}]`);
    out.push(x === 1 ? y : x);
  }
  return out;
}

function floatBytes(values: ArrayLike<number>): Uint8Array {
  const f = Float32Array.from(values);
  return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
}

export function constF32(g: GraphBuilder, values: ArrayLike<number>, dims: readonly number[], hint = 'const'): Value {
  if (values.length !== prod(dims))
    throw new Error(`constant ${hint}: ${values.length} values for dims [${dims.join(',')}]`);
  return g.constant('float32', dims, floatBytes(values), hint);
}

export function constI64(
  g: GraphBuilder,
  values: readonly number[],
  dims: readonly number[] = [values.length],
  hint = 'shape',
): Value {
  const b = new BigInt64Array(values.map((v) => BigInt(v)));
  return g.constant('int64', dims, new Uint8Array(b.buffer), hint);
}

export function scalarF32(g: GraphBuilder, v: number): Value {
  return constF32(g, [v], [], 'scalar');
}

function unary(g: GraphBuilder, op: string, x: Value, attrs = {}): Value {
  return g.node(op, [x], [{ type: x.type, dims: x.dims }], attrs)[0]!;
}

function binary(g: GraphBuilder, op: string, a: Value, b: Value): Value {
  return g.node(op, [a, b], [{ type: a.type, dims: broadcastDims(a.dims, b.dims) }])[0]!;
}

export const add = (g: GraphBuilder, a: Value, b: Value): Value => binary(g, 'Add', a, b);
export const sub = (g: GraphBuilder, a: Value, b: Value): Value => binary(g, 'Sub', a, b);
export const mul = (g: GraphBuilder, a: Value, b: Value): Value => binary(g, 'Mul', a, b);
export const div = (g: GraphBuilder, a: Value, b: Value): Value => binary(g, 'Div', a, b);
export const sin = (g: GraphBuilder, x: Value): Value => unary(g, 'Sin', x);
export const cos = (g: GraphBuilder, x: Value): Value => unary(g, 'Cos', x);
export const sigmoid = (g: GraphBuilder, x: Value): Value => unary(g, 'Sigmoid', x);
export const tanh = (g: GraphBuilder, x: Value): Value => unary(g, 'Tanh', x);
export const relu = (g: GraphBuilder, x: Value): Value => unary(g, 'Relu', x);
export const softplus = (g: GraphBuilder, x: Value): Value => unary(g, 'Softplus', x);
export const erf = (g: GraphBuilder, x: Value): Value => unary(g, 'Erf', x);
export const leakyRelu = (g: GraphBuilder, x: Value, alpha: number): Value =>
  unary(g, 'LeakyRelu', x, { alpha: attr.float(alpha) });
export const silu = (g: GraphBuilder, x: Value): Value => mul(g, x, sigmoid(g, x));
export const softmax = (g: GraphBuilder, x: Value, axis = -1): Value =>
  unary(g, 'Softmax', x, { axis: attr.int(axis) });

export function cast(g: GraphBuilder, x: Value, to: ElemType): Value {
  if (x.type === to) return x;
  return g.node('Cast', [x], [{ type: to, dims: x.dims }], { to: attr.int(ELEM_TYPE_CODE[to]) })[0]!;
}

export function matmul(g: GraphBuilder, a: Value, b: Value): Value {
  if (a.dims.length < 2 || b.dims.length < 2) throw new Error('matmul needs rank >= 2');
  const [m, k] = a.dims.slice(-2) as [number, number];
  const [k2, n] = b.dims.slice(-2) as [number, number];
  if (k !== k2) throw new Error(`matmul inner dims differ: [${a.dims.join(',')}] x [${b.dims.join(',')}]`);
  const batch = broadcastDims(a.dims.slice(0, -2), b.dims.slice(0, -2));
  return g.node('MatMul', [a, b], [{ type: a.type, dims: [...batch, m, n] }])[0]!;
}

/**
 * x (..., in) @ wᵀ (+ b) with w stored (out, in) like torch Linear weights: one Gemm (transB) on
 * the flattened leading dims, so checkpoint weights are used as they lie in the file.
 */
export function linear(g: GraphBuilder, x: Value, w: Value, b?: Value | null): Value {
  const [n, k] = w.dims as [number, number];
  const lead = x.dims.slice(0, -1);
  if (w.dims.length !== 2 || x.dims[x.dims.length - 1] !== k)
    throw new Error(`linear: input [${x.dims.join(',')}] does not match weight [${w.dims.join(',')}] (out, in)`);
  if (b && (b.dims.length !== 1 || b.dims[0] !== n))
    throw new Error(`linear: bias [${b.dims.join(',')}] does not match ${n} outputs`);
  const m = prod(lead);
  const y = g.node(
    'Gemm',
    b ? [reshape(g, x, [m, k]), w, b] : [reshape(g, x, [m, k]), w],
    [{ type: x.type, dims: [m, n] }],
    { transB: attr.int(1) },
  )[0]!;
  return reshape(g, y, [...lead, n]);
}

export function layerNorm(g: GraphBuilder, x: Value, scale: Value, bias: Value | null, eps: number, axis = -1): Value {
  return g.node('LayerNormalization', bias ? [x, scale, bias] : [x, scale], [{ type: x.type, dims: x.dims }], {
    axis: attr.int(axis),
    epsilon: attr.float(eps),
  })[0]!;
}

export function reshape(g: GraphBuilder, x: Value, dims: readonly number[]): Value {
  const total = prod(x.dims);
  const out = dims.map((d, i) => (d === 0 ? x.dims[i]! : d));
  const known = prod(out.filter((d) => d !== -1));
  const resolved = out.map((d) => (d === -1 ? total / known : d));
  if (prod(resolved) !== total || resolved.some((d) => !Number.isInteger(d)))
    throw new Error(`cannot reshape [${x.dims.join(',')}] to [${dims.join(',')}]`);
  if (resolved.every((d, i) => d === x.dims[i]) && resolved.length === x.dims.length) return x;
  return g.node('Reshape', [x, constI64(g, resolved)], [{ type: x.type, dims: resolved }])[0]!;
}

export function transpose(g: GraphBuilder, x: Value, perm: readonly number[]): Value {
  if (perm.length !== x.dims.length) throw new Error(`transpose perm [${perm.join(',')}] for rank ${x.dims.length}`);
  return g.node('Transpose', [x], [{ type: x.type, dims: perm.map((p) => x.dims[p]!) }], { perm: attr.ints(perm) })[0]!;
}

export function slice(g: GraphBuilder, x: Value, axis: number, start: number, end: number): Value {
  const a = normAxis(axis, x.dims.length);
  const size = x.dims[a]!;
  const s = Math.max(0, Math.min(size, start < 0 ? start + size : start));
  const e = Math.max(s, Math.min(size, end < 0 ? end + size : end));
  if (s === 0 && e === size) return x;
  const dims = x.dims.map((d, i) => (i === a ? e - s : d));
  return g.node('Slice', [x, constI64(g, [s]), constI64(g, [e]), constI64(g, [a])], [{ type: x.type, dims }])[0]!;
}

export function concat(g: GraphBuilder, xs: readonly Value[], axis: number): Value {
  if (xs.length === 1) return xs[0]!;
  const first = xs[0]!;
  const a = normAxis(axis, first.dims.length);
  for (const x of xs) {
    if (x.dims.length !== first.dims.length || x.dims.some((d, i) => i !== a && d !== first.dims[i])) {
      throw new Error(`concat shapes differ: ${xs.map((v) => `[${v.dims.join(',')}]`).join(' ')}`);
    }
  }
  const dims = first.dims.map((d, i) => (i === a ? xs.reduce((s, x) => s + x.dims[a]!, 0) : d));
  return g.node('Concat', xs, [{ type: first.type, dims }], { axis: attr.int(a) })[0]!;
}

/** the most outputs one Split node may have (input + outputs within WebGPU's 8 storage buffers) */
export const MAX_SPLIT_OUTPUTS = 6;

export function split(g: GraphBuilder, x: Value, sizes: readonly number[], axis: number): Value[] {
  const a = normAxis(axis, x.dims.length);
  if (sizes.reduce((s, v) => s + v, 0) !== x.dims[a])
    throw new Error(`split sizes [${sizes.join(',')}] do not add up to ${x.dims[a]}`);
  if (sizes.length === 1) return [x];
  // onnxruntime-web's WebGPU Split binds every output as a storage buffer, and WebGPU devices get
  // 8 per shader stage by default: wider splits (the fused modulation) become Slice nodes.
  if (sizes.length > MAX_SPLIT_OUTPUTS) {
    let o = 0;
    return sizes.map((s) => slice(g, x, a, o, (o += s)));
  }
  return g.node(
    'Split',
    [x, constI64(g, sizes)],
    sizes.map((s) => ({ type: x.type, dims: x.dims.map((d, i) => (i === a ? s : d)) })),
    { axis: attr.int(a) },
  );
}

export function unsqueeze(g: GraphBuilder, x: Value, axes: readonly number[]): Value {
  const rank = x.dims.length + axes.length;
  const norm = axes.map((a) => (a < 0 ? a + rank : a)).sort((p, q) => p - q);
  const dims: number[] = [];
  let j = 0;
  for (let i = 0; i < rank; i++) dims.push(norm.includes(i) ? 1 : x.dims[j++]!);
  return reshape(g, x, dims);
}

export function gather(g: GraphBuilder, x: Value, indices: Value, axis: number): Value {
  const a = normAxis(axis, x.dims.length);
  const dims = [...x.dims.slice(0, a), ...indices.dims, ...x.dims.slice(a + 1)];
  return g.node('Gather', [x, indices], [{ type: x.type, dims }], { axis: attr.int(a) })[0]!;
}

export function expand(g: GraphBuilder, x: Value, dims: readonly number[]): Value {
  const out = broadcastDims(x.dims, dims);
  return g.node('Expand', [x, constI64(g, out)], [{ type: x.type, dims: out }])[0]!;
}

export type GeluKind = 'tanh' | 'erf';

/** GELU as a single node: com.microsoft FastGelu (tanh) / Gelu (erf) */
export function gelu(g: GraphBuilder, x: Value, kind: GeluKind): Value {
  return g.node(kind === 'tanh' ? 'FastGelu' : 'Gelu', [x], [{ type: x.type, dims: x.dims }], {}, MS_DOMAIN)[0]!;
}

/**
 * com.microsoft MultiHeadAttention: q (B, S, H*D), k/v (B, L, H*D) -> (B, S, H*Dv).
 * The softmax scale defaults to 1/sqrt(D).
 */
export function multiHeadAttention(
  g: GraphBuilder,
  q: Value,
  k: Value,
  v: Value,
  numHeads: number,
  scale?: number,
): Value {
  const [b, s, hd] = q.dims as [number, number, number];
  const [, l, vd] = v.dims as [number, number, number];
  if (k.dims[2] !== hd || k.dims[1] !== l)
    throw new Error(
      `attention key shape [${k.dims.join(',')}] does not match query [${q.dims.join(',')}] / value [${v.dims.join(',')}]`,
    );
  const attrs = { num_heads: attr.int(numHeads), ...(scale === undefined ? {} : { scale: attr.float(scale) }) };
  return g.node('MultiHeadAttention', [q, k, v], [{ type: q.type, dims: [b, s, vd] }], attrs, MS_DOMAIN)[0]!;
}
