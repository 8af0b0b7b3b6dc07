// Weight precisions: what each one does to the large Linear layers, on each device. Measured on
// preview-s and a family of generated checkpoints (docs/model-precision-family.md): int8 holds
// float32's error within 3e-2 on all of them at about a quarter of the bytes, int4 is the small one.
import type { LinearRole, Quantization, QuantizedMatMul } from '../graph/context.ts';
import type { ComputeDtype } from '../graph/context.ts';
import type { Device } from '../runtime/types.ts';

export const WEIGHT_PRECISIONS = ['float32', 'float16', 'int8', 'int4'] as const;
export type WeightPrecision = (typeof WEIGHT_PRECISIONS)[number];

/**
 * int8 is weight-only on every device: int8 weights with one scale per output row, dequantized
 * for a float Gemm. Activations quantized at run time (com.microsoft DynamicQuantizeMatMul, one
 * scale per tensor) are far less exact, and on AVX2 CPUs without VNNI its uint8 x int8 kernel
 * saturates 16-bit pair sums; MatMulNBits at 8 bits with float compute is as close and slower
 * (docs/model-precision-family.md).
 */
const INT8: QuantizedMatMul = { op: 'DequantizeLinear' };
const int4For = (device: Device): QuantizedMatMul => ({
  op: 'MatMulNBits',
  bits: 4,
  block: 32,
  accuracyLevel: device === 'webgpu' ? 0 : 4,
  biasInput: device !== 'webgpu',
});

/**
 * int4 keeps the identity module at 8 bits: 4-bit blocks there alone made the output 8.8e-2 off
 * the float32 path on preview-s, against under 1e-2 with the rest of the model at 4 bits.
 */
const INT4_AT_8_BITS: ReadonlySet<LinearRole> = new Set(['identity']);

/**
 * The largest max|a - e| / max|e| against float32 measured on the generated checkpoint family
 * (uniform, heavy, outlier channels; preview-s and the demo size, cpu, wasm and WebGPU): what choosing
 * each precision implies (where each figure comes from: docs/model-precision-family.md).
 */
export const PRECISION_ERROR_VS_FLOAT32: Readonly<Record<WeightPrecision, number>> = {
  float32: 0,
  float16: 4.8e-3,
  int8: 2.7e-2,
  int4: 1.5e-1,
};

/** the precision, or an error naming the option (a JS caller or a message may pass any string) */
export function checkWeightPrecision(precision: string): WeightPrecision {
  if (!(WEIGHT_PRECISIONS as readonly string[]).includes(precision))
    throw new Error(`weights must be one of ${WEIGHT_PRECISIONS.join(', ')}; got ${JSON.stringify(precision)}`);
  return precision as WeightPrecision;
}

export function quantizationFor(precision: WeightPrecision, device: Device): Quantization | null {
  switch (checkWeightPrecision(precision)) {
    case 'float32':
    case 'float16':
      return null;
    case 'int8':
      return () => INT8;
    case 'int4':
      return (role) => (INT4_AT_8_BITS.has(role) ? INT8 : int4For(device));
  }
}

/**
 * The compute dtype a precision runs in: float16 weights are float16 compute (a float32 compute
 * would hold them as float32 again, so `dtype: 'float16'` and `weights: 'float16'` are the same
 * model); quantized weights multiply float32 activations.
 */
export function computeDtypeFor(precision: WeightPrecision, dtype: ComputeDtype | undefined): ComputeDtype {
  checkWeightPrecision(precision);
  if (precision === 'float16' && dtype === 'float32')
    throw new Error('weights float16 run in float16: drop dtype float32, or use weights float32');
  if ((precision === 'int8' || precision === 'int4') && dtype === 'float16')
    throw new Error(`weights ${precision} multiply float32 activations: drop dtype float16`);
  return precision === 'float16' ? 'float16' : (dtype ?? 'float32');
}
