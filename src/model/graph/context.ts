// What every graph-building function gets: the builder, the config and the weights. Weights enter
// the graph as references to where they lie in the checkpoint files (ONNX external data); any
// layout or dtype change is a graph op that onnxruntime folds when it creates the session.
import type { WeightEntry, WeightSet } from '../safetensors/weight-set.ts';
import { DTYPE_BYTES, f32ToF16, type SafetensorsDtype } from '../safetensors/dtype.ts';
import type { ConsisIDConfig } from '../config.ts';
import type { GraphBuilder, Value } from '../onnx/graph-builder.ts';
import type { ElemType } from '../onnx/onnx-proto.ts';
import { cast, concat, constF32 } from '../onnx/ops.ts';

export type ComputeDtype = 'float32' | 'float16';

export interface BuildContext {
  g: GraphBuilder;
  config: ConsisIDConfig;
  weights: WeightSet;
  dtype: ComputeDtype;
  /** identity-module attention through folded K/V projections: 'auto' when there are fewer queries (or keys) than head channels */
  foldAttention?: 'auto' | 'always' | 'never';
}

const ELEM: Partial<Record<SafetensorsDtype, ElemType>> = { F32: 'float32', F16: 'float16', BF16: 'bfloat16' };

export function entry(ctx: BuildContext, name: string): WeightEntry {
  const e = ctx.weights.get(name);
  if (!e) throw new Error(`weight "${name}" is missing`);
  return e;
}

export function elemType(e: WeightEntry): ElemType {
  const t = ELEM[e.dtype];
  if (!t) throw new Error(`${e.file}: tensor "${e.name}": dtype ${e.dtype} is not a weight dtype (use F32, F16 or BF16)`);
  return t;
}

export interface ParamOptions {
  /** only these leading-axis rows (a contiguous part of the stored tensor) */
  rows?: [number, number];
  /** the stored bytes read with these dims (same element count) */
  dims?: readonly number[];
}

/** a checkpoint tensor (or some of its leading rows) where it lies, in its stored dtype */
export function storedParam(ctx: BuildContext, name: string, opts: ParamOptions = {}): Value {
  const e = entry(ctx, name);
  const type = elemType(e);
  const rowsTotal = e.shape[0] ?? 1;
  const [r0, r1] = opts.rows ?? [0, rowsTotal];
  const rowBytes = rowsTotal ? e.length / rowsTotal : 0;
  const dims = opts.dims ?? (opts.rows ? [r1 - r0, ...e.shape.slice(1)] : e.shape);
  const length = (r1 - r0) * rowBytes;
  if (r0 < 0 || r1 > rowsTotal || r0 > r1 || dims.reduce((a, b) => a * b, 1) * DTYPE_BYTES[e.dtype] !== length) {
    throw new Error(`weight "${name}": dims [${dims.join(', ')}] do not cover rows [${r0}, ${r1}) of [${e.shape.join(', ')}]`);
  }
  const label = opts.rows ? `${name}.rows_${r0}_${r1}` : name;
  return ctx.g.externalInitializer(label, type, dims, { location: e.fileName, offset: e.offset + r0 * rowBytes, length });
}

/** a checkpoint tensor in the compute dtype (a Cast that onnxruntime folds when the dtypes differ) */
export function param(ctx: BuildContext, name: string, opts: ParamOptions = {}): Value {
  return cast(ctx.g, storedParam(ctx, name, opts), ctx.dtype);
}

/** torch Linear weights (out, in) of several projections reading the same input, stacked along out */
export function stackedParam(ctx: BuildContext, names: readonly string[], suffix: 'weight' | 'bias'): Value | null {
  const have = names.filter((n) => ctx.weights.has(`${n}.${suffix}`));
  if (!have.length) return null;
  if (have.length !== names.length) throw new Error(`${names.join(', ')}: some ${suffix}es are missing`);
  return concat(ctx.g, names.map((n) => param(ctx, `${n}.${suffix}`)), 0);
}

/** a small constant in the compute dtype */
export function constT(ctx: BuildContext, values: ArrayLike<number>, dims: readonly number[], hint = 'const'): Value {
  if (ctx.dtype === 'float16') {
    const h = f32ToF16(Float32Array.from(values));
    return ctx.g.constant('float16', dims, new Uint8Array(h.buffer), hint);
  }
  return constF32(ctx.g, values, dims, hint);
}
