// Host tensors for tests, built from plain numbers.
import { numel, type HostTensor } from '../io/tensor.ts';

/** a float32 tensor of `data`, checked against `shape` */
export function tensorF32(data: Float32Array | number[], shape: number[]): HostTensor {
  const d = data instanceof Float32Array ? data : Float32Array.from(data);
  if (d.length !== numel(shape))
    throw new Error(`tensor data has ${d.length} values, shape [${shape.join(', ')}] needs ${numel(shape)}`);
  return { dtype: 'float32', shape, data: d };
}
