// Deterministic random weights for a config (demo checkpoints, benchmarks, tests).
import type { ConsisIDConfig } from './config.ts';
import { expectedParameters } from './graph/parameters.ts';
import { f32ToBf16, f32ToF16 } from './safetensors/dtype.ts';
import { numel, type HostTensor } from './tensor.ts';
import { prng } from './prng.ts';

export { prng };

/** uniform in [-limit, limit) */
export function fillUniform(out: Float32Array, rand: () => number, limit: number, offset = 0): Float32Array {
  for (let i = 0; i < out.length; i++) out[i] = offset + (2 * rand() - 1) * limit;
  return out;
}

function initFor(name: string, shape: number[], rand: () => number): Float32Array {
  const out = new Float32Array(numel(shape));
  const isNormWeight =
    shape.length === 1 && /(norm[^.]*|\.1\.0|mapping_\d+\.[14]|id_embedding_mapping\.[14])\.weight$/.test(name);
  if (isNormWeight) return fillUniform(out, rand, 0.1, 1);
  if (shape.length === 1) return fillUniform(out, rand, 0.05);
  if (name === 'local_facial_extractor.proj_out' || name === 'local_facial_extractor.latents')
    return fillUniform(out, rand, Math.sqrt(3) / Math.sqrt(shape[shape.length === 2 ? 0 : 2]!));
  // fan-in scaled, like torch's default Linear init
  const fanIn = shape.slice(1).reduce((a, b) => a * b, 1);
  return fillUniform(out, rand, 1 / Math.sqrt(fanIn));
}

export type WeightDtype = 'float32' | 'float16' | 'bfloat16';

/** the random parameters of a config one at a time, in checkpoint order (generated checkpoints stream them) */
export function* randomTensors(
  config: ConsisIDConfig,
  seed: number,
  dtype: WeightDtype = 'float32',
): Generator<[string, HostTensor]> {
  const rand = prng(seed);
  for (const [name, shape] of expectedParameters(config)) {
    const values = initFor(name, shape, rand);
    if (dtype === 'float32') yield [name, { dtype, shape, data: values }];
    else yield [name, { dtype, shape, data: dtype === 'float16' ? f32ToF16(values) : f32ToBf16(values) }];
  }
}

export function randomWeights(
  config: ConsisIDConfig,
  seed: number,
  dtype: WeightDtype = 'float32',
): Map<string, HostTensor> {
  return new Map(randomTensors(config, seed, dtype));
}
