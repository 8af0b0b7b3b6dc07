// Deterministic forward inputs for a preview run. Pure: the page's worker, the e2e specs and the
// benches all call generateInputs() with the same spec and get bit-identical tensors, so a browser
// output can be compared with a Node reference computed on the same inputs.
import type { ConsisIDConfig } from '../graph/config.ts';
import type { ForwardArgs } from '../models/consisid/forward-inputs.ts';
import { DEFAULT_VIT_TOKENS, type InputSpec } from '../graph/input-spec.ts';
import { prng } from '../models/consisid/prng.ts';
import { prepareRotaryEmbeddings } from '../models/consisid/rope.ts';
import { numel } from '../io/tensor.ts';

export interface F32Tensor {
  dtype: 'float32';
  shape: number[];
  data: Float32Array;
}

export interface PreviewInputs {
  hidden_states: F32Tensor;
  encoder_hidden_states: F32Tensor;
  timestep: number;
  id_cond?: F32Tensor;
  id_vit_hidden?: F32Tensor[];
}

/** 32-bit FNV-1a of a label, mixed with the seed: every tensor has its own stream. */
function streamSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Standard normal float32 values (Box-Muller on mulberry32), deterministic for (seed, label). */
export function gaussian(seed: number, label: string, n: number, scale = 1): Float32Array {
  const next = prng(streamSeed(seed, label));
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const u1 = 1 - next(); // (0, 1]
    const u2 = next();
    const r = Math.sqrt(-2 * Math.log(u1)) * scale;
    out[i] = r * Math.cos(2 * Math.PI * u2);
    if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * u2);
  }
  return out;
}

export function randomTensor(seed: number, label: string, shape: number[], scale = 1): F32Tensor {
  return { dtype: 'float32', shape, data: gaussian(seed, label, numel(shape), scale) };
}

/**
 * The forward inputs for a spec: latents (1, F, C, H, W), text embeddings (1, L, text_embed_dim),
 * and, with identity, id_cond (1, LFE_id_dim) and LFE_num_scale id_vit_hidden of (1, T, LFE_vit_dim).
 * Each tensor has its own random stream, so changing the text length leaves the latents alone.
 */
export function generateInputs(c: ConsisIDConfig, s: InputSpec): PreviewInputs {
  const out: PreviewInputs = {
    hidden_states: randomTensor(s.seed, 'hidden_states', [1, s.frames, c.in_channels, s.height, s.width]),
    encoder_hidden_states: randomTensor(s.seed, 'encoder_hidden_states', [1, s.textLength, c.text_embed_dim]),
    timestep: s.timestep,
  };
  if (s.identity) {
    const t = s.vitTokens ?? DEFAULT_VIT_TOKENS;
    out.id_cond = randomTensor(s.seed, 'id_cond', [1, c.LFE_id_dim]);
    out.id_vit_hidden = Array.from({ length: c.LFE_num_scale }, (_, i) =>
      randomTensor(s.seed, `id_vit_hidden.${i}`, [1, t, c.LFE_vit_dim]),
    );
  }
  return out;
}

/** pixels per latent pixel in the ConsisID VAE (vae_scale_factor_spatial) */
export const VAE_SCALE_FACTOR_SPATIAL = 8;

/**
 * forward() arguments for generated (or uploaded) inputs: adds image_rotary_emb, computed with
 * prepareRotaryEmbeddings for the latent size, when the config uses rotary embeddings.
 */
export function forwardArgs(c: ConsisIDConfig, inputs: PreviewInputs): ForwardArgs {
  const [, frames = 1, , height = 1, width = 1] = inputs.hidden_states.shape;
  const args: ForwardArgs = {
    hidden_states: inputs.hidden_states,
    encoder_hidden_states: inputs.encoder_hidden_states,
    timestep: inputs.timestep,
  };
  if (c.use_rotary_positional_embeddings) {
    args.image_rotary_emb = prepareRotaryEmbeddings(c, {
      height: height * VAE_SCALE_FACTOR_SPATIAL,
      width: width * VAE_SCALE_FACTOR_SPATIAL,
      numFrames: frames,
      vaeScaleFactorSpatial: VAE_SCALE_FACTOR_SPATIAL,
    });
  }
  if (inputs.id_cond && inputs.id_vit_hidden) {
    args.id_cond = inputs.id_cond;
    args.id_vit_hidden = inputs.id_vit_hidden;
  }
  return args;
}
