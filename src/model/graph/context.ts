// What every graph-building function gets: the builder, the config and the weights. Weights enter
// the graph as references to where they lie in the checkpoint files (ONNX external data); any
// layout or dtype change is a graph op that onnxruntime folds when it creates the session.
import type { WeightEntry, WeightSet } from '../io/safetensors/weight-set.ts';
import { bf16ToF16, bf16ToF32, DTYPE_BYTES, f32ToF16, type SafetensorsDtype } from '../io/safetensors/dtype.ts';
import type { ConsisIDConfig } from './config.ts';
import type { GraphBuilder, Value } from '../onnx/graph-builder.ts';
import type { ElemType, ExternalLocation } from '../onnx/onnx-proto.ts';
import { cast, constF32 } from '../onnx/ops.ts';

/**
 * - `fused`: one com.microsoft MultiHeadAttention node. onnxruntime's WebGPU EP runs it as flash
 *   attention (unpacked Q/K/V, no bias, equal Q/K/V head sizes that are a multiple of 4: every
 *   attention of this model), so no (B, H, S, L) tensor exists; the CPU kernel keeps the probabilities.
 * - `decomposed`: MatMul, Softmax, MatMul per head: exact everywhere, with the (B, H, S, L) scores a
 *   real tensor. For WebGPU adapters whose subgroups are narrower than 8 lanes, where onnxruntime-web's
 *   flash attention shader returns wrong values (docs/model-webgpu.md).
 */
export type AttentionKernel = 'fused' | 'decomposed';

export type ComputeDtype = 'float32' | 'float16';

/** how a quantized Linear layer holds its weights and multiplies */
export type QuantizedMatMul =
  /** com.microsoft MatMulNBits: blocks of `block` weights along the input axis, one scale each */
  | {
      op: 'MatMulNBits';
      bits: 4 | 8;
      block: number;
      accuracyLevel: 0 | 1 | 2 | 3 | 4;
      /** the bias as the op's 6th input (WebGPU's kernel takes 3 or 4 inputs) */ biasInput: boolean;
    }
  /** int8 weights with one scale per output, dequantized for a float Gemm at run time (weight-only: smaller, not faster) */
  | { op: 'DequantizeLinear' };

/** the Linear layers by what they do; layers without a role (time embedding, output projection) stay float */
export const LINEAR_ROLES = ['attention', 'feed-forward', 'modulation', 'identity', 'text'] as const;
export type LinearRole = (typeof LINEAR_ROLES)[number];

/**
 * How each Linear layer holds its weights: null keeps it float. `rows` is how many rows flow
 * through it: a layer few rows flow through is weight-bound (its cost is its bytes), one many rows
 * flow through is compute-bound (its cost is the product), so they may get different ops.
 */
export type Quantization = (role: LinearRole, rows: number) => QuantizedMatMul | null;

export interface BuildContext {
  g: GraphBuilder;
  config: ConsisIDConfig;
  weights: WeightSet;
  dtype: ComputeDtype;
  /** identity-module attention through folded K/V projections: 'auto' when there are fewer queries (or keys) than head channels */
  foldAttention?: 'auto' | 'always' | 'never';
  /** quantized large Linear layers; null or absent: float weights */
  quantization?: Quantization | null;
  /** how attention is written (default fused: one MultiHeadAttention node) */
  attention?: AttentionKernel;
  /**
   * bfloat16 checkpoint tensors made in the compute dtype when the session is made, instead of a
   * Cast in the graph: onnxruntime-web's WebGPU EP (and its CPU fallback) has no bfloat16 Cast
   */
  widenBfloat16?: boolean;
}

/** what taking checkpoint tensors into a graph needs (any model's build context) */
export type ParamContext = Pick<BuildContext, 'g' | 'weights' | 'dtype' | 'widenBfloat16'>;

const ELEM: Partial<Record<SafetensorsDtype, ElemType>> = { F32: 'float32', F16: 'float16', BF16: 'bfloat16' };

export function entry(ctx: ParamContext, name: string): WeightEntry {
  const e = ctx.weights.get(name);
  if (!e) throw new Error(`weight "${name}" is missing`);
  return e;
}

export function elemType(e: WeightEntry): ElemType {
  const t = ELEM[e.dtype];
  if (!t)
    throw new Error(`${e.file}: tensor "${e.name}": dtype ${e.dtype} is not a weight dtype (use F32, F16 or BF16)`);
  return t;
}

export interface ParamOptions {
  /** only these leading-axis rows (a contiguous part of the stored tensor) */
  rows?: [number, number];
  /** the stored bytes read with these dims (same element count) */
  dims?: readonly number[];
}

/** where rows [r0, r1) of a checkpoint tensor lie in its file */
export function weightLocation(
  ctx: ParamContext,
  name: string,
  rows?: [number, number],
): { entry: WeightEntry; location: ExternalLocation; rows: number } {
  const e = entry(ctx, name);
  const rowsTotal = e.shape[0] ?? 1;
  const [r0, r1] = rows ?? [0, rowsTotal];
  if (r0 < 0 || r1 > rowsTotal || r0 > r1)
    throw new Error(`weight "${name}": rows [${r0}, ${r1}) outside [${e.shape.join(', ')}]`);
  const rowBytes = rowsTotal ? e.length / rowsTotal : 0;
  return {
    entry: e,
    location: { location: e.fileName, offset: e.offset + r0 * rowBytes, length: (r1 - r0) * rowBytes },
    rows: r1 - r0,
  };
}

/** a checkpoint tensor (or some of its leading rows) where it lies, in its stored dtype */
export function storedParam(ctx: ParamContext, name: string, opts: ParamOptions = {}): Value {
  const { entry: e, location } = weightLocation(ctx, name, opts.rows);
  const dims = opts.dims ?? (opts.rows ? [opts.rows[1] - opts.rows[0], ...e.shape.slice(1)] : e.shape);
  if (dims.reduce((a, b) => a * b, 1) * DTYPE_BYTES[e.dtype] !== location.length) {
    throw new Error(
      `weight "${name}": dims [${dims.join(', ')}] do not cover the ${location.length} bytes of rows ${opts.rows ? `[${opts.rows.join(', ')})` : 'all'} of [${e.shape.join(', ')}]`,
    );
  }
  const label = opts.rows ? `${name}.rows_${opts.rows[0]}_${opts.rows[1]}` : name;
  return ctx.g.externalInitializer(label, elemType(e), dims, location);
}

/** a checkpoint tensor in the compute dtype (a Cast that onnxruntime folds when the dtypes differ) */
export function param(ctx: ParamContext, name: string, opts: ParamOptions = {}): Value {
  if (ctx.widenBfloat16 && entry(ctx, name).dtype === 'BF16') return widenedParam(ctx, name, opts);
  return cast(ctx.g, storedParam(ctx, name, opts), ctx.dtype);
}

/** a bfloat16 checkpoint tensor (or rows of it) made in the compute dtype when the session is made (exact) */
function widenedParam(ctx: ParamContext, name: string, opts: ParamOptions): Value {
  const { entry: e, location, rows } = weightLocation(ctx, name, opts.rows);
  const dims = opts.dims ?? (opts.rows ? [rows, ...e.shape.slice(1)] : e.shape);
  const half = ctx.dtype === 'float16';
  const compute = ([b]: readonly Uint8Array[]): Uint8Array[] => {
    const bits = new Uint16Array(b!.buffer.slice(b!.byteOffset, b!.byteOffset + b!.byteLength));
    const out = half ? bf16ToF16(bits) : bf16ToF32(bits);
    return [new Uint8Array(out.buffer, out.byteOffset, out.byteLength)];
  };
  const label = opts.rows ? `${name}.rows_${opts.rows[0]}_${opts.rows[1]}` : name;
  const byteLength = (location.length / 2) * (half ? 2 : 4);
  return ctx.g.computedInitializer(label, ctx.dtype, dims, {
    byteLength,
    output: 0,
    group: { inputs: [location], compute },
  });
}

/** a small constant in the compute dtype */
export function constT(ctx: ParamContext, values: ArrayLike<number>, dims: readonly number[], hint = 'const'): Value {
  if (ctx.dtype === 'float16') {
    const h = f32ToF16(Float32Array.from(values));
    return ctx.g.constant('float16', dims, new Uint8Array(h.buffer), hint);
  }
  return constF32(ctx.g, values, dims, hint);
}
