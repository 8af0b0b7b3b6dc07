// Configs by name, for `consisid generate` and `consisid plan`.
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from './demo-checkpoints.ts';
import type { ConsisIDConfigInput } from '../../graph/config.ts';

/**
 * preview-s: the size the preview page targets (8 heads x 64, 8 layers, identity module; 829 MiB
 * of float32 weights), the benchmark's model.
 */
export const PREVIEW_S_CONFIG = {
  num_attention_heads: 8,
  attention_head_dim: 64,
  num_layers: 8,
  in_channels: 16,
  out_channels: 16,
  time_embed_dim: 512,
  text_embed_dim: 4096,
  sample_width: 44,
  sample_height: 30,
  sample_frames: 13,
  is_train_face: true,
  LFE_output_dim: 341,
  cross_attn_interval: 2,
} satisfies ConsisIDConfigInput;

/**
 * The released ConsisID transformer (BestWishYsh/ConsisID-preview, built on CogVideoX-5B I2V):
 * 42 layers of 48 heads x 64, image latents concatenated to the video latents (32 input channels),
 * rotary and learned positional embeddings, the identity module with its defaults.
 */
export const CONSISID_CONFIG = {
  num_attention_heads: 48,
  attention_head_dim: 64,
  num_layers: 42,
  in_channels: 32,
  out_channels: 16,
  time_embed_dim: 512,
  text_embed_dim: 4096,
  sample_width: 90,
  sample_height: 60,
  sample_frames: 49,
  max_text_seq_length: 226,
  use_rotary_positional_embeddings: true,
  use_learned_positional_embeddings: true,
  is_train_face: true,
  LFE_output_dim: 2048,
  cross_attn_interval: 2,
} satisfies ConsisIDConfigInput;

export const NAMED_CONFIGS: Readonly<Record<string, ConsisIDConfigInput>> = {
  tiny: CONSISID_TINY_CONFIG,
  'demo-preview-s': CONSISID_PREVIEW_S_CONFIG,
  'preview-s': PREVIEW_S_CONFIG,
  consisid: CONSISID_CONFIG,
};
