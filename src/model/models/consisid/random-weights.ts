// Deterministic random weights for a config (demo checkpoints, benchmarks, tests).
import type { ConsisIDConfig } from '../../graph/config.ts';
import { expectedParameters } from '../../graph/parameters.ts';
import { f32ToBf16, f32ToF16 } from '../../io/safetensors/dtype.ts';
import { numel, type HostTensor } from '../../io/tensor.ts';
import { prng } from './prng.ts';

export { prng };

/** uniform in [-limit, limit) */
export function fillUniform(out: Float32Array, rand: () => number, limit: number, offset = 0): Float32Array {
  for (let i = 0; i < out.length; i++) out[i] = offset + (2 * rand() - 1) * limit;
  return out;
}

/**
 * Kinds of random checkpoint, for the precisions' error (docs/model-precision-family.md):
 * - uniform: every weight uniform within torch's default Linear bounds (fan-in scaled), norm gains near 1;
 * - heavy: the same plus Gaussian noise of std 0.05 on every parameter: larger weights, which make
 *   large activations, as trained diffusion transformers have;
 * - outliers: uniform, with 4 channels of the transformer blocks' norm gains (the same channels in
 *   every block) 32x larger: a few input channels of the products carry large activations.
 */
export const WEIGHT_FAMILIES = ['uniform', 'heavy', 'outliers'] as const;
export type WeightFamily = (typeof WEIGHT_FAMILIES)[number];
export const isWeightFamily = (name: string): name is WeightFamily =>
  (WEIGHT_FAMILIES as readonly string[]).includes(name);

/** the family `option` (an environment variable of a bench) names, or an error naming the option and the choices */
export function checkWeightFamily(family: string, option: string): WeightFamily {
  if (!isWeightFamily(family))
    throw new Error(`${option} must be one of ${WEIGHT_FAMILIES.join(', ')}; got ${JSON.stringify(family)}`);
  return family;
}

const HEAVY_NOISE_STD = 0.05;
const OUTLIER_GAIN = 32;
/**
 * The transformer blocks' norm gains: what the attention and feed-forward products read. (Outliers
 * in the identity module's norms too would make its attention, which has no query/key norm, near an
 * argmax on random weights, far from any real checkpoint: docs/model-precision-family.md.)
 */
const OUTLIER_NORMS = /^transformer_blocks\.\d+\.norm[12]\.norm\.weight$/;
/** where the outlier channels sit, as fractions of the width (4 channels at any width from 4) */
const OUTLIER_AT = [0.11, 0.37, 0.62, 0.87];

/** standard normal (Box-Muller) */
function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

const isNormWeight = (name: string, shape: number[]): boolean =>
  shape.length === 1 && /(norm[^.]*|\.1\.0|mapping_\d+\.[14]|id_embedding_mapping\.[14])\.weight$/.test(name);

/** `noise`: a stream of its own, so a family's weights are the uniform ones plus its change */
function initFor(
  name: string,
  shape: number[],
  rand: () => number,
  noise: () => number,
  family: WeightFamily,
): Float32Array {
  const out = uniformInit(name, shape, rand);
  if (family === 'heavy') for (let i = 0; i < out.length; i++) out[i]! += HEAVY_NOISE_STD * gaussian(noise);
  if (family === 'outliers' && OUTLIER_NORMS.test(name))
    for (const f of OUTLIER_AT) out[Math.floor(f * out.length)]! *= OUTLIER_GAIN;
  return out;
}

function uniformInit(name: string, shape: number[], rand: () => number): Float32Array {
  const out = new Float32Array(numel(shape));
  if (isNormWeight(name, shape)) return fillUniform(out, rand, 0.1, 1);
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
  family: WeightFamily = 'uniform',
): Generator<[string, HostTensor]> {
  const rand = prng(seed);
  const noise = prng(~seed);
  for (const [name, shape] of expectedParameters(config)) {
    const values = initFor(name, shape, rand, noise, family);
    if (dtype === 'float32') yield [name, { dtype, shape, data: values }];
    else yield [name, { dtype, shape, data: dtype === 'float16' ? f32ToF16(values) : f32ToBf16(values) }];
  }
}

export function randomWeights(
  config: ConsisIDConfig,
  seed: number,
  dtype: WeightDtype = 'float32',
  family: WeightFamily = 'uniform',
): Map<string, HostTensor> {
  return new Map(randomTensors(config, seed, dtype, family));
}
