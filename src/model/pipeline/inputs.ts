// Deterministic forward inputs for a preview run. Pure: the page's worker, the e2e specs and the
// benches all call generateInputs() with the same spec and get bit-identical tensors, so a browser
// output can be compared with a Node reference computed on the same inputs.
import type { ConsisIDConfig } from '../graph/config.ts';
import type { ForwardArgs } from '../models/consisid/forward-inputs.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { prng } from '../models/consisid/prng.ts';
import { prepareRotaryEmbeddings } from '../models/consisid/rope.ts';
import { numel } from '../io/tensor.ts';

export interface F32Tensor {
  dtype: 'float32';
  shape: number[];
  data: Float32Array;
}

export interface InputSpec {
  seed: number;
  /** latent frames */
  frames: number;
  /** latent height and width (multiples of patch_size) */
  height: number;
  width: number;
  textLength: number;
  timestep: number;
  /** identity inputs (id_cond, id_vit_hidden) for checkpoints with the identity module */
  identity: boolean;
  /** tokens per id_vit_hidden scale (577 in the reference pipeline: a 24 x 24 ViT + class token) */
  vitTokens?: number;
}

export interface PreviewInputs {
  hidden_states: F32Tensor;
  encoder_hidden_states: F32Tensor;
  timestep: number;
  id_cond?: F32Tensor;
  id_vit_hidden?: F32Tensor[];
}

export const DEFAULT_VIT_TOKENS = 577;

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

export interface Range {
  min: number;
  max: number;
  step: number;
}

export interface InputLimits {
  frames: Range;
  height: Range;
  width: Range;
  textLength: Range;
  timestep: Range;
  /** learned positional embeddings pin the latent size to the configured one */
  fixedSize: boolean;
}

/** The latent frames a config is built for: sample_frames = (K - 1) * temporal_compression_ratio + 1. */
export const configLatentFrames = (c: ConsisIDConfig): number =>
  Math.floor((c.sample_frames - 1) / c.temporal_compression_ratio) + 1;

export function inputLimits(c: ConsisIDConfig): InputLimits {
  const p = c.patch_size;
  const frames = configLatentFrames(c);
  const h = Math.max(p, c.sample_height - (c.sample_height % p));
  const w = Math.max(p, c.sample_width - (c.sample_width % p));
  const fixedSize = c.use_learned_positional_embeddings;
  return {
    frames: { min: fixedSize ? frames : 1, max: frames, step: 1 },
    height: { min: fixedSize ? h : p, max: h, step: p },
    width: { min: fixedSize ? w : p, max: w, step: p },
    // the learned table's text rows are added whole (the pinned size is the configured one)
    textLength: { min: fixedSize ? c.max_text_seq_length : 1, max: c.max_text_seq_length, step: 1 },
    timestep: { min: 0, max: 999, step: 1 },
    fixedSize,
  };
}

/** Small defaults that run quickly in a browser: at most 2 frames of 16 x 16, 16 text tokens. */
export function defaultSpec(c: ConsisIDConfig): InputSpec {
  const l = inputLimits(c);
  const clamp = (r: Range, v: number) => Math.min(r.max, Math.max(r.min, v - (v % r.step)));
  return {
    seed: 42,
    frames: clamp(l.frames, 2),
    height: clamp(l.height, 16),
    width: clamp(l.width, 16),
    textLength: clamp(l.textLength, 16),
    timestep: 500,
    identity: c.is_train_face,
    vitTokens: DEFAULT_VIT_TOKENS,
  };
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

/** the graph a run of `spec` builds: what its plan and its session are made for */
export function specShape(config: ConsisIDConfig, spec: InputSpec): GraphShape {
  const face = config.is_train_face && spec.identity;
  return {
    batch: 1,
    frames: spec.frames,
    height: spec.height,
    width: spec.width,
    textLength: spec.textLength,
    timestepCond: false,
    rotary: config.use_rotary_positional_embeddings,
    face: face
      ? {
          idBatch: 1,
          vitLengths: Array.from({ length: config.LFE_num_scale }, () => spec.vitTokens ?? DEFAULT_VIT_TOKENS),
        }
      : null,
  };
}
