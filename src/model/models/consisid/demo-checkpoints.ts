// Deterministic random-weight demo checkpoints in the real diffusers file layout, served by the
// mock hub at /{repoId}/resolve/{revision}/{path}: a transformer/ and the vae/ that decodes its latents.
import { parseConfig, type ConsisIDConfigInput } from '../../graph/config.ts';
import { writeCheckpointFiles } from './checkpoint-writer.ts';
import type { FolderFile } from '../../io/safetensors/shards.ts';
import { randomWeights } from './random-weights.ts';
import { randomVaeFiles, SMALL_VAE_CONFIG } from '../vae/random-vae.ts';

export interface DemoCheckpoint {
  repoId: string;
  files: FolderFile[];
}

/** tiny: no identity module, sincos positions, one F32 file */
export const CONSISID_TINY_CONFIG = {
  num_attention_heads: 2,
  attention_head_dim: 16,
  in_channels: 4,
  out_channels: 4,
  time_embed_dim: 32,
  text_embed_dim: 32,
  num_layers: 2,
  sample_width: 16,
  sample_height: 12,
  sample_frames: 9,
  max_text_seq_length: 16,
} satisfies ConsisIDConfigInput;

/** preview-s: identity module, rotary positions, F16 weights in 2 shards (about 1.5 MB) */
export const CONSISID_PREVIEW_S_CONFIG = {
  num_attention_heads: 4,
  attention_head_dim: 16,
  in_channels: 4,
  out_channels: 4,
  time_embed_dim: 64,
  text_embed_dim: 64,
  num_layers: 4,
  sample_width: 16,
  sample_height: 16,
  sample_frames: 9,
  max_text_seq_length: 32,
  use_rotary_positional_embeddings: true,
  is_train_face: true,
  cross_attn_interval: 2,
  cross_attn_dim_head: 16,
  cross_attn_num_heads: 4,
  LFE_id_dim: 64,
  LFE_vit_dim: 64,
  LFE_depth: 4,
  LFE_dim_head: 16,
  LFE_num_heads: 4,
  LFE_num_id_token: 2,
  LFE_num_querie: 8,
  LFE_output_dim: 42,
  LFE_ff_mult: 2,
  LFE_num_scale: 2,
  local_face_scale: 1.0,
} satisfies ConsisIDConfigInput;

/**
 * The demos' VAE: the released decoder's geometry (4 blocks: 8x in space, 4x in time) in 8 and 16
 * channels, decoding the transformers' 4 latent channels; about 0.5 MB, a decode takes a second or so.
 */
export const DEMO_VAE_CONFIG = {
  ...SMALL_VAE_CONFIG,
  down_block_types: Array(4).fill('CogVideoXDownBlock3D'),
  up_block_types: Array(4).fill('CogVideoXUpBlock3D'),
  block_out_channels: [8, 8, 16, 16],
  latent_channels: 4,
};

function modelIndex(): FolderFile {
  const index = {
    _class_name: 'ConsisIDPipeline',
    _diffusers_version: '0.39.0',
    transformer: ['diffusers', 'ConsisIDTransformer3DModel'],
    vae: ['diffusers', 'AutoencoderKLCogVideoX'],
  };
  return { path: 'model_index.json', bytes: new TextEncoder().encode(`${JSON.stringify(index, null, 2)}\n`) };
}

function readme(repoId: string, description: string): FolderFile {
  const text = `---\nlibrary_name: diffusers\ntags: [consisid, demo, random-weights]\n---\n# ${repoId}\n\n${description}\nRandom weights: outputs are noise. Made for the Hub Console preview.\n`;
  return { path: 'README.md', bytes: new TextEncoder().encode(text) };
}

function fullConfig(input: ConsisIDConfigInput): Record<string, unknown> {
  return { ...parseConfig(input) };
}

export function consisidTinyFiles(): FolderFile[] {
  const config = parseConfig(CONSISID_TINY_CONFIG);
  return [
    readme('consisid-community/consisid-tiny', 'A tiny ConsisID transformer without the identity module.'),
    modelIndex(),
    ...writeCheckpointFiles(fullConfig(CONSISID_TINY_CONFIG), randomWeights(config, 1, 'float32'), {
      prefix: 'transformer',
    }),
    ...randomVaeFiles(DEMO_VAE_CONFIG, { seed: 1, prefix: 'vae' }),
  ];
}

export function consisidPreviewSFiles(): FolderFile[] {
  const config = parseConfig(CONSISID_PREVIEW_S_CONFIG);
  return [
    readme(
      'consisid-community/consisid-preview-s',
      'A small ConsisID transformer with the identity module, rotary embeddings and float16 weights in two shards.',
    ),
    modelIndex(),
    ...writeCheckpointFiles(fullConfig(CONSISID_PREVIEW_S_CONFIG), randomWeights(config, 2, 'float16'), {
      prefix: 'transformer',
      shards: 2,
    }),
    ...randomVaeFiles(DEMO_VAE_CONFIG, { seed: 2, prefix: 'vae' }),
  ];
}

export function demoCheckpoints(): DemoCheckpoint[] {
  return [
    { repoId: 'consisid-community/consisid-tiny', files: consisidTinyFiles() },
    { repoId: 'consisid-community/consisid-preview-s', files: consisidPreviewSFiles() },
  ];
}
