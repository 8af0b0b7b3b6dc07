// What a built graph costs, read off its nodes and their static shapes: FLOPs per forward, the
// weight bytes a session holds, and the activation peak. The same walk serves the model (its
// FLOP count), the benchmark and `consisid plan`.
import { ELEM_TYPE_BYTES, tensorBytes, type ElemType, type GraphDef, type NodeDef } from './onnx-proto.ts';
import { bufferDemand, heldBytes, type BufferCacheMode, type TensorLife } from './ep-buffers.ts';

interface ValueShape {
  type: ElemType;
  dims: readonly number[];
}

const numel = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);
const bytesOf = (v: ValueShape): number => numel(v.dims) * ELEM_TYPE_BYTES[v.type];

/** every value's type and shape: inputs, initializers, node outputs */
export function valueShapes(g: GraphDef): Map<string, ValueShape> {
  const m = new Map<string, ValueShape>();
  for (const v of [...g.inputs, ...(g.valueInfo ?? [])]) m.set(v.name, { type: v.type, dims: v.dims.map(Number) });
  for (const t of g.initializers) m.set(t.name, { type: t.type, dims: t.dims });
  return m;
}

/** multiply-adds count 2; only products count (MatMul, Gemm, the quantized products, attention) */
export function nodeFlops(n: NodeDef, shape: (name: string) => ValueShape): number {
  const out = () => numel(shape(n.outputs[0]!).dims);
  const inner = (i: number) => shape(n.inputs[i]!).dims.at(-1)!;
  switch (n.opType) {
    case 'MatMul':
    case 'MatMulNBits':
      return 2 * out() * inner(0);
    case 'Gemm': {
      const trans = n.attributes.transA?.kind === 'int' && n.attributes.transA.value === 1;
      return 2 * out() * shape(n.inputs[0]!).dims[trans ? 0 : 1]!;
    }
    case 'MultiHeadAttention': {
      const [b, s, hd] = shape(n.inputs[0]!).dims as [number, number, number];
      const [, l, vd] = shape(n.inputs[2]!).dims as [number, number, number];
      return 2 * b * s * l * (hd + vd);
    }
    default:
      return 0;
  }
}

export const graphFlops = (g: GraphDef): number => flopsOf(g, shapeOf(valueShapes(g)));

const flopsOf = (g: GraphDef, shape: (name: string) => ValueShape): number => {
  let flops = 0;
  for (const n of g.nodes) flops += nodeFlops(n, shape);
  return flops;
};

const shapeOf =
  (shapes: Map<string, ValueShape>) =>
  (name: string): ValueShape =>
    shapes.get(name) ?? missing(name);

function missing(name: string): never {
  throw new Error(`no shape for value ${name}`);
}

/** ops onnxruntime gives a view of their input (no new buffer) */
const VIEWS = new Set(['Reshape', 'Identity', 'Squeeze', 'Unsqueeze', 'Flatten']);
/** ops onnxruntime does not constant-fold (weight-only int8 dequantizes on every run) */
const NOT_FOLDED = new Set(['DequantizeLinear']);

/**
 * scratch a kernel allocates beyond its outputs: onnxruntime's CPU attention keeps the (B, H, S, L)
 * probabilities; its WebGPU EP's flash attention (every MultiHeadAttention of this model) copies the
 * keys and values into (B, H, L, D) tensors of its own (ApplyFlashAttention's internal present_key /
 * present_value, onnxruntime/contrib_ops/webgpu/bert/flash_attention.cc)
 */
function workspace(n: NodeDef, shape: (name: string) => ValueShape, flashAttention: boolean): PlannedBuffer[] {
  if (n.opType !== 'MultiHeadAttention') return [];
  if (flashAttention)
    return [1, 2].map((i) => ({
      name: `${n.name} (${i === 1 ? 'keys' : 'values'} copy)`,
      bytes: bytesOf(shape(n.inputs[i]!)),
    }));
  const heads = n.attributes.num_heads?.kind === 'int' ? n.attributes.num_heads.value : 1;
  const q = shape(n.inputs[0]!);
  const [b, s] = q.dims as [number, number];
  const l = shape(n.inputs[1]!).dims[1]!;
  return [{ name: `${n.name} (attention probabilities)`, bytes: b * heads * s * l * ELEM_TYPE_BYTES[q.type] }];
}

export interface GraphCost {
  flops: number;
  /** bytes of the constants a session keeps: initializers, and what the constant subgraphs (casts, concats, transposes of weights) fold to */
  weightBytes: number;
  /**
   * the most bytes of run-time tensors (inputs, intermediates, kernel scratch) the session holds at
   * once: with `bufferCache`, what onnxruntime's WebGPU EP holds for them (ep-buffers.ts), else
   * livePeakBytes
   */
  activationPeakBytes: number;
  /** the most bytes of run-time tensors alive at once, each freed after its last reader */
  livePeakBytes: number;
  /** with `bufferCache`: what the EP's cache makes for the run-time tensors (heldBytes merges those of several graphs) */
  bufferDemand: Map<number, number> | null;
  /** the largest single buffer, weight or run-time (WebGPU binds each as one storage buffer) */
  largestBuffer: PlannedBuffer;
  /** every buffer, weight or run-time, largest first */
  buffers: PlannedBuffer[];
  /** the constants the session holds (named as the graph names them), largest first */
  weightBuffers: PlannedBuffer[];
}

export interface PlannedBuffer {
  name: string;
  bytes: number;
}

export interface CostOptions {
  /** attention runs as flash attention (onnxruntime's WebGPU EP): no (B, H, S, L) probabilities */
  flashAttention?: boolean;
  /** the run-time tensors are buffers of onnxruntime's WebGPU EP, its cache in this mode */
  bufferCache?: BufferCacheMode;
  /**
   * the provider runs float16 nodes in float32 kernels between Casts (onnxruntime's CPU EP on x86,
   * and WASM): run-time float16 tensors count at float32's bytes (measured: docs/vae.md, "float16")
   */
  float16AsFloat32?: boolean;
}

export function graphCost(g: GraphDef, opts: CostOptions = {}): GraphCost {
  const shape = shapeOf(valueShapes(g));
  const runBytes = (v: ValueShape) =>
    opts.float16AsFloat32 && v.type === 'float16' ? numel(v.dims) * ELEM_TYPE_BYTES.float32 : bytesOf(v);
  const constant = new Set(g.initializers.map((t) => t.name));
  const initBytes = new Map(g.initializers.map((t) => [t.name, tensorBytes(t)]));
  // values a run-time node reads: the constants among them are what the session holds
  const held = new Map<string, number>();
  const root = new Map<string, string>();
  const lastUse = new Map<string, number>();
  const rootOf = (v: string) => root.get(v) ?? v;
  g.nodes.forEach((n, i) => {
    const folded = !NOT_FOLDED.has(n.opType) && n.inputs.every((x) => !x || constant.has(x));
    if (folded) {
      for (const o of n.outputs) constant.add(o);
      return;
    }
    for (const x of n.inputs) {
      if (!x) continue;
      if (constant.has(x)) held.set(x, initBytes.get(x) ?? bytesOf(shape(x)));
      else lastUse.set(rootOf(x), i);
    }
    if (VIEWS.has(n.opType) && n.inputs[0] && !constant.has(n.inputs[0])) root.set(n.outputs[0]!, rootOf(n.inputs[0]));
  });
  for (const o of g.outputs) lastUse.set(rootOf(o.name), g.nodes.length);
  const buffers: PlannedBuffer[] = [];
  const consider = (name: string, bytes: number) => buffers.push({ name, bytes });
  for (const [name, bytes] of held) consider(name, bytes);
  // run-time tensors: alive from their node (graph inputs: from the start) to their last reader, freed
  // after the first node run at or after both (a graph output never)
  const runs = g.nodes.map((n) => !n.outputs.every((o) => constant.has(o)));
  const firstRun = runs.indexOf(true);
  const dying = new Map<number, number[]>();
  const dieAt = (i: number, bytes: number) => {
    const list = dying.get(i);
    if (list) list.push(bytes);
    else dying.set(i, [bytes]);
  };
  // the same tensors as buffers of the WebGPU EP: graph inputs are the caller's for the whole run
  const lives: TensorLife[] = [];
  const end = g.nodes.length;
  let current = 0;
  for (const v of g.inputs) {
    const b = runBytes(shape(v.name));
    current += b;
    dieAt(Math.max(lastUse.get(v.name) ?? -1, firstRun), b);
    // and its upload's staging buffer (onnxruntime's BufferManager::Upload)
    lives.push({ bytes: b, from: 0, to: end }, { bytes: b, from: 0, to: 0 });
  }
  let peak = current;
  g.nodes.forEach((n, i) => {
    if (!runs[i]) return;
    let added = 0;
    for (const o of n.outputs) {
      if (root.has(o)) continue;
      const b = runBytes(shape(o));
      const last = Math.max(lastUse.get(o) ?? -1, i);
      dieAt(last, b);
      lives.push({ bytes: b, from: i, to: last });
      added += b;
      consider(o, b);
    }
    let scratch = 0;
    for (const w of workspace(n, shape, opts.flashAttention === true)) {
      consider(w.name, w.bytes);
      lives.push({ bytes: w.bytes, from: i, to: i });
      scratch += w.bytes;
    }
    current += added;
    peak = Math.max(peak, current + scratch);
    for (const b of dying.get(i) ?? []) current -= b;
  });
  // each output's read-back staging buffer (BufferManager::Download)
  for (const o of g.outputs) lives.push({ bytes: runBytes(shape(o.name)), from: end - 1, to: end });
  const dispatching = g.nodes.map((n, i) => runs[i]! && !VIEWS.has(n.opType));
  const demand = opts.bufferCache ? bufferDemand(lives, dispatching, opts.bufferCache) : null;
  buffers.sort((a, b) => b.bytes - a.bytes);
  const weightBuffers = [...held].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return {
    flops: flopsOf(g, shape),
    weightBytes: [...held.values()].reduce((a, b) => a + b, 0),
    activationPeakBytes: demand ? heldBytes([demand]) : peak,
    livePeakBytes: peak,
    bufferDemand: demand,
    largestBuffer: buffers[0] ?? { name: '', bytes: 0 },
    buffers,
    weightBuffers,
  };
}
