// What a run is asked for (seed, latent size, text length, timestep, identity) and what a config
// allows of it: the page's input choices, their defaults, and the graph shape a spec makes. The plan
// and the pipeline both start from a spec.
import type { ConsisIDConfig } from './config.ts';
import type { GraphShape } from './transformer.ts';

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

export const DEFAULT_VIT_TOKENS = 577;

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
