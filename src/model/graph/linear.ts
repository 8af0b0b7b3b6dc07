// torch Linear layers as graph ops, on the checkpoint weights where they lie: float (one Gemm on
// the stored (out, in) weights) or quantized when the session is made (MatMulNBits blocks, or
// per-row int8 dequantized for a float Gemm).
import { add, cast, concat, linear } from '../onnx/ops.ts';
import { MS_DOMAIN, attr, type Value } from '../onnx/graph-builder.ts';
import type { ComputedGroup, QuantizedGroup } from '../onnx/onnx-proto.ts';
import { f32ToF16, floatValues } from '../io/safetensors/dtype.ts';
import { blocksPerRow, quantizeRowsInt8Into, quantizeRowsInto, type QuantizedFormat } from './quantize.ts';
import { param, weightLocation, type BuildContext, type LinearRole, type QuantizedMatMul } from './context.ts';

/** a torch Linear, or some of its output rows */
export interface LinearPart {
  name: string;
  rows?: [number, number];
}

type Parts = string | readonly (string | LinearPart)[];

const partsOf = (p: Parts): LinearPart[] =>
  typeof p === 'string' ? [{ name: p }] : p.map((x) => (typeof x === 'string' ? { name: x } : x));

const partParam = (ctx: BuildContext, p: LinearPart, suffix: 'weight' | 'bias'): Value =>
  param(ctx, `${p.name}.${suffix}`, p.rows ? { rows: p.rows } : {});

/** the parts' biases stacked like their weights, or null when none has one */
function stackedBias(ctx: BuildContext, parts: readonly LinearPart[]): Value | null {
  const have = parts.filter((p) => ctx.weights.has(`${p.name}.bias`));
  if (!have.length) return null;
  if (have.length !== parts.length) throw new Error(`${parts.map((p) => p.name).join(', ')}: some biases are missing`);
  return concat(
    ctx.g,
    parts.map((p) => partParam(ctx, p, 'bias')),
    0,
  );
}

/**
 * One or more Linear layers (or row ranges of them) reading the same input, e.g. to_q, to_k, to_v,
 * as one matrix product over their weights stacked along the output axis: outputs come in the
 * order of `parts`. The role says whether the context quantizes it (null: always float).
 */
export function linearLayer(ctx: BuildContext, x: Value, parts: Parts, role: LinearRole | null): Value {
  const list = partsOf(parts);
  const bias = stackedBias(ctx, list);
  const q =
    role && ctx.quantization
      ? ctx.quantization(
          role,
          x.dims.slice(0, -1).reduce((a, b) => a * b, 1),
        )
      : null;
  if (q) return quantizedProduct(ctx, x, list, q, bias);
  const w = concat(
    ctx.g,
    list.map((p) => partParam(ctx, p, 'weight')),
    0,
  );
  return linear(ctx.g, x, w, bias);
}

/** x @ Wᵀ (+ bias) with W the parts' weights quantized when the session is made */
function quantizedProduct(
  ctx: BuildContext,
  x: Value,
  parts: readonly LinearPart[],
  q: QuantizedMatMul,
  bias: Value | null,
): Value {
  const { g } = ctx;
  const locs = parts.map((p) => weightLocation(ctx, `${p.name}.weight`, p.rows));
  const k = locs[0]!.entry.shape[1]!;
  if (locs.some((l) => l.entry.shape.length !== 2 || l.entry.shape[1] !== k))
    throw new Error(`${parts.map((p) => p.name).join(', ')}: stacked layers read different input sizes`);
  const n = locs.reduce((s, l) => s + l.rows, 0);
  const lead = x.dims.slice(0, -1);
  const label = `${parts[0]!.name}${parts.length > 1 ? `+${parts.length - 1}` : ''}`;
  const inputs = locs.map((l) => l.location);
  const stacked = (format: QuantizedFormat, scales: 'float32' | 'float16'): QuantizedGroup => ({
    format,
    parts: locs.map((l, i) => {
      const r0 = parts[i]!.rows?.[0] ?? 0;
      return { tensor: `${parts[i]!.name}.weight`, rows: [r0, r0 + l.rows] as const };
    }),
    k,
    scales,
  });
  if (q.op === 'DequantizeLinear') {
    const group: ComputedGroup = {
      inputs,
      quantized: stacked({ kind: 'int8-rows' }, 'float32'),
      compute(bytes) {
        const out = { q: new Int8Array(n * k), scales: new Float32Array(n) };
        let row = 0;
        locs.forEach((l, i) => {
          quantizeRowsInt8Into(out, row, floatValues(l.entry.dtype, bytes[i]!), l.rows, k);
          row += l.rows;
        });
        return [new Uint8Array(out.q.buffer), new Uint8Array(out.scales.buffer)];
      },
    };
    const b = g.computedInitializer(`${label}.weight_int8`, 'int8', [n, k], { byteLength: n * k, group, output: 0 });
    const scale = g.computedInitializer(`${label}.weight_scale`, 'float32', [n], {
      byteLength: 4 * n,
      group,
      output: 1,
    });
    const w = g.node('DequantizeLinear', [b, scale], [{ type: 'float32', dims: [n, k] }], { axis: attr.int(0) })[0]!;
    return linear(g, x, cast(g, w, ctx.dtype), bias);
  }
  const blocks = blocksPerRow(k, q.block);
  const blob = (q.block * q.bits) / 8;
  const half = ctx.dtype === 'float16';
  const group: ComputedGroup = {
    inputs,
    quantized: stacked({ kind: 'blocks', bits: q.bits, block: q.block }, half ? 'float16' : 'float32'),
    compute(bytes) {
      const out = { q: new Uint8Array(n * blocks * blob), scales: new Float32Array(n * blocks) };
      let row = 0;
      locs.forEach((l, i) => {
        quantizeRowsInto(out, row, floatValues(l.entry.dtype, bytes[i]!), l.rows, k, q.bits, q.block);
        row += l.rows;
      });
      return [out.q, half ? new Uint8Array(f32ToF16(out.scales).buffer) : new Uint8Array(out.scales.buffer)];
    },
  };
  const b = g.computedInitializer(`${label}.weight_q${q.bits}`, 'uint8', [n, blocks, blob], {
    byteLength: n * blocks * blob,
    group,
    output: 0,
  });
  const scales = g.computedInitializer(`${label}.weight_scales`, ctx.dtype, [n * blocks], {
    byteLength: n * blocks * (half ? 2 : 4),
    group,
    output: 1,
  });
  const attrs = {
    K: attr.int(k),
    N: attr.int(n),
    bits: attr.int(q.bits),
    block_size: attr.int(q.block),
    accuracy_level: attr.int(q.accuracyLevel),
  };
  const y = g.node(
    'MatMulNBits',
    [x, b, scales, null, null, q.biasInput ? bias : null],
    [{ type: x.type, dims: [...lead, n] }],
    attrs,
    MS_DOMAIN,
  )[0]!;
  return bias && !q.biasInput ? add(g, y, bias) : y;
}
