// What every graph-building function gets: the builder, the config and the weights.
import { entryToFloat32 } from '../safetensors/read';
import type { WeightSet } from '../safetensors/weight-set';
import { f32ToF16 } from '../safetensors/dtype';
import type { ConsisIDConfig } from '../config';
import type { GraphBuilder, Value } from '../onnx/graph-builder';
import { constF32 } from '../onnx/ops';

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

/**
 * One MatMul weight (in, sum of outs) and its bias from torch Linear weights (out, in): fuses
 * projections that read the same input.
 */
export function fusedLinear(ctx: BuildContext, parts: readonly LinearPart[], label: string): { w: Value; b: Value | null } {
  const mats = parts.map((p) => {
    const e = ctx.weights.get(`${p.name}.weight`);
    if (!e) throw new Error(`weight "${p.name}.weight" is missing`);
    const [out, inp] = e.shape as [number, number];
    const [r0, r1] = p.rows ?? [0, out];
    let w = weight(ctx, `${p.name}.weight`).subarray(r0 * inp, r1 * inp);
    const rows = r1 - r0;
    let b: Float32Array | null = ctx.weights.has(`${p.name}.bias`) ? weight(ctx, `${p.name}.bias`).slice(r0, r1) : null;
    if (p.scale !== undefined && p.scale !== 1) {
      w = w.map((v) => v * p.scale!);
      if (b) b = b.map((v) => v * p.scale!);
    }
    if (p.biasOffset) {
      b ??= new Float32Array(rows);
      b = b.map((v) => v + p.biasOffset!);
    }
    return { w, rows, inp, b };
  });
  const inp = mats[0]!.inp;
  const total = mats.reduce((s, m) => s + m.rows, 0);
  const stacked = new Float32Array(total * inp);
  let o = 0;
  for (const m of mats) {
    if (m.inp !== inp) throw new Error(`${label}: fused projections read different input sizes`);
    stacked.set(m.w, o);
    o += m.w.length;
  }
  const w = init(ctx, `${label}.weight_t`, transpose2d(stacked, total, inp), [inp, total]);
  if (!mats.some((m) => m.b)) return { w, b: null };
  const bias = new Float32Array(total);
  let bo = 0;
  for (const m of mats) {
    if (m.b) bias.set(m.b, bo);
    bo += m.rows;
  }
  return { w, b: init(ctx, `${label}.bias`, bias, [total]) };
}
