// Weight precisions: what each one does to the large Linear layers, on each device. Measured on
// preview-s (see docs/performance.md): int8 is the fast one (and 4x smaller), int4 the small one.
import type { LinearRole, Quantization, QuantizedMatMul } from './graph/context.ts';
import type { ComputeDtype } from './graph/context.ts';
import type { Device } from './runtime/types.ts';

export const WEIGHT_PRECISIONS = ['float32', 'float16', 'int8', 'int4'] as const;
export type WeightPrecision = (typeof WEIGHT_PRECISIONS)[number];

/**
 * On onnxruntime's CPU kernels (cpu, and wasm, the same kernels compiled to WebAssembly) per-column
 * int8 with activations quantized at run time (DynamicQuantizeMatMul) multiplies about 3.3x faster
 * than float32 Gemm at preview-s shapes, MatMulNBits 1.3-1.7x. onnxruntime-web's WebGPU kernels
 * have neither DynamicQuantizeMatMul nor 8-bit MatMulNBits (2 and 4 bits only): int8 weights are
 * dequantized there for a float Gemm (DequantizeLinear, which onnxruntime does not fold).
 */
const int8For = (device: Device): QuantizedMatMul =>
  device === 'webgpu' ? { op: 'DequantizeLinear' } : { op: 'DynamicQuantizeMatMul' };
const int4For = (device: Device): QuantizedMatMul => ({
  op: 'MatMulNBits',
  bits: 4,
  block: 32,
  accuracyLevel: device === 'webgpu' ? 0 : 4,
  biasInput: device !== 'webgpu',
});

/**
 * int8 holds the adaptive-norm modulation projections at 4 bits: one row per sample flows through
 * them, so they cost their bytes, not their products (12% of preview-s's weights, no measurable
 * time), and 4-bit blocks there take the weights past 4x smaller than float32 (3.88x -> 4.06x on
 * preview-s) for 5.6e-3 -> 7.1e-3 error against float32.
 */
const INT8_AT_4_BITS: ReadonlySet<LinearRole> = new Set(['modulation']);

/**
 * int4 keeps the identity module at 8 bits: 4-bit blocks there alone made the output 8.8e-2 off
 * the float32 path on preview-s, against under 1e-2 with the rest of the model at 4 bits.
 */
const INT4_AT_8_BITS: ReadonlySet<LinearRole> = new Set(['identity']);

/** the precision, or an error naming the option (a JS caller or a message may pass any string) */
export function checkWeightPrecision(precision: string): WeightPrecision {
  if (!(WEIGHT_PRECISIONS as readonly string[]).includes(precision))
    throw new Error(`weights must be one of ${WEIGHT_PRECISIONS.join(', ')}; got ${JSON.stringify(precision)}`);
  return precision as WeightPrecision;
}

export function quantizationFor(precision: WeightPrecision, device: Device): Quantization | null {
  const int8 = int8For(device);
  switch (checkWeightPrecision(precision)) {
    case 'float32':
    case 'float16':
      return null;
    case 'int8':
      return (role) => (INT8_AT_4_BITS.has(role) ? int4For(device) : int8);
    case 'int4':
      return (role) => (INT4_AT_8_BITS.has(role) ? int8 : int4For(device));
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
