// What every graph-building function gets: the builder, the config and the weights.
import { entryToFloat32 } from '../safetensors/read.ts';
import type { WeightSet } from '../safetensors/weight-set.ts';
import { f32ToF16 } from '../safetensors/dtype.ts';
import type { ConsisIDConfig } from '../config.ts';
import type { GraphBuilder, Value } from '../onnx/graph-builder.ts';
import { constF32 } from '../onnx/ops.ts';

export type ComputeDtype = 'float32' | 'float16';

export interface BuildContext {
  g: GraphBuilder;
  config: ConsisIDConfig;
  weights: WeightSet;
  dtype: ComputeDtype;
  /** identity-module attention through folded K/V projections: 'auto' when there are fewer queries (or keys) than head channels */
  foldAttention?: 'auto' | 'always' | 'never';
}

export function weight(ctx: BuildContext, name: string): Float32Array {
  const e = ctx.weights.get(name);
  if (!e) throw new Error(`weight "${name}" is missing`);
  return entryToFloat32(e, e.file);
}

/** (rows, cols) row-major -> (cols, rows) */
export function transpose2d(w: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  const B = 64;
  for (let r0 = 0; r0 < rows; r0 += B) {
    for (let c0 = 0; c0 < cols; c0 += B) {
      const r1 = Math.min(rows, r0 + B);
      const c1 = Math.min(cols, c0 + B);
      for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out[c * rows + r] = w[r * cols + c]!;
    }
  }
  return out;
}

/** an initializer in the compute dtype */
export function init(ctx: BuildContext, name: string, values: Float32Array, dims: readonly number[]): Value {
  if (ctx.dtype === 'float16') {
    const h = f32ToF16(values);
    return ctx.g.initializer(name, 'float16', dims, new Uint8Array(h.buffer));
  }
  return ctx.g.initializer(name, 'float32', dims, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

/** a small constant in the compute dtype */
export function constT(ctx: BuildContext, values: ArrayLike<number>, dims: readonly number[], hint = 'const'): Value {
  if (ctx.dtype === 'float16') {
    const h = f32ToF16(Float32Array.from(values));
    return ctx.g.constant('float16', dims, new Uint8Array(h.buffer), hint);
  }
  return constF32(ctx.g, values, dims, hint);
}

export const param = (ctx: BuildContext, name: string): Value => {
  const e = ctx.weights.get(name);
  if (!e) throw new Error(`weight "${name}" is missing`);
  return init(ctx, name, weight(ctx, name), e.shape);
};

export interface LinearPart {
  name: string;
  /** scale applied to weight and bias (folds constant multipliers into the projection) */
  scale?: number;
  /** added to the bias (e.g. the 1 in `1 + scale` of adaptive norms) */
  biasOffset?: number;
  /** use only these output rows of the torch weight */
  rows?: [number, number];
}

/** a float32 view of an F32 weight when aligned (read-only use), else a decoded copy */
function weightView(ctx: BuildContext, name: string): Float32Array {
  const e = ctx.weights.get(name);
  if (!e) throw new Error(`weight "${name}" is missing`);
  if (e.dtype === 'F32' && e.bytes.byteOffset % 4 === 0) return new Float32Array(e.bytes.buffer, e.bytes.byteOffset, e.bytes.length / 4);
  return entryToFloat32(e, e.file);
}

/** writes rows [r0, r1) of w (rows x cols, row-major), transposed and scaled, into columns [col, col + r1 - r0) of out (cols x outCols) */
function transposeInto(out: Float32Array, outCols: number, col: number, w: Float32Array, cols: number, r0: number, r1: number, scale: number): void {
  const B = 64;
  for (let rb = r0; rb < r1; rb += B) {
    const re = Math.min(r1, rb + B);
    for (let cb = 0; cb < cols; cb += B) {
      const ce = Math.min(cols, cb + B);
      for (let r = rb; r < re; r++) {
        const o = col + r - r0;
        const base = r * cols;
        for (let c = cb; c < ce; c++) out[c * outCols + o] = w[base + c]! * scale;
      }
    }
  }
}

/**
 * One MatMul weight (in, sum of outs) and its bias from torch Linear weights (out, in): fuses
 * projections that read the same input.
 */
export function fusedLinear(ctx: BuildContext, parts: readonly LinearPart[], label: string): { w: Value; b: Value | null } {
  const shapes = parts.map((p) => {
    const e = ctx.weights.get(`${p.name}.weight`);
    if (!e) throw new Error(`weight "${p.name}.weight" is missing`);
    const [out, inp] = e.shape as [number, number];
    const [r0, r1] = p.rows ?? [0, out];
    return { inp, r0, r1 };
  });
  const inp = shapes[0]!.inp;
  if (shapes.some((s) => s.inp !== inp)) throw new Error(`${label}: fused projections read different input sizes`);
  const total = shapes.reduce((s, m) => s + m.r1 - m.r0, 0);
  const wt = new Float32Array(inp * total);
  const bias = new Float32Array(total);
  let hasBias = false;
  let col = 0;
  parts.forEach((p, i) => {
    const { r0, r1 } = shapes[i]!;
    const scale = p.scale ?? 1;
    transposeInto(wt, total, col, weightView(ctx, `${p.name}.weight`), inp, r0, r1, scale);
    if (ctx.weights.has(`${p.name}.bias`)) {
      const b = weightView(ctx, `${p.name}.bias`);
      for (let r = r0; r < r1; r++) bias[col + r - r0] = b[r]! * scale;
      hasBias = true;
    }
    if (p.biasOffset) {
      for (let r = r0; r < r1; r++) bias[col + r - r0]! += p.biasOffset;
      hasBias = true;
    }
    col += r1 - r0;
  });
  const w = init(ctx, `${label}.weight_t`, wt, [inp, total]);
  return { w, b: hasBias ? init(ctx, `${label}.bias`, bias, [total]) : null };
}
