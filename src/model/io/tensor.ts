// Host-side tensors: what forward() takes and returns, what safetensors files decode to.
export type TensorData = Float32Array | Float64Array | BigInt64Array | Int32Array | Uint16Array;

export type DType = 'float32' | 'float16' | 'bfloat16' | 'float64' | 'int64' | 'int32';

export interface HostTensor {
  dtype: DType;
  shape: number[];
  data: TensorData;
}

export const numel = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

export const formatShape = (shape: readonly number[]): string => `(${shape.join(', ')})`;

/** max|a - e| / max|e| (max|a - e| where e is all zeros): the fidelity measure of the fixtures, the precision tests, `forward --compare` and the preview */
export function relativeError(actual: ArrayLike<number>, expected: ArrayLike<number>): number {
  if (actual.length !== expected.length)
    throw new Error(`relativeError: ${actual.length} values against ${expected.length}`);
  let err = 0;
  let max = 0;
  for (let i = 0; i < expected.length; i++) {
    err = Math.max(err, Math.abs(actual[i]! - expected[i]!));
    max = Math.max(max, Math.abs(expected[i]!));
  }
  return max === 0 ? err : err / max;
}
