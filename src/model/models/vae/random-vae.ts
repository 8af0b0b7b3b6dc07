// Random-weight VAE folders (decoder weights only: what decoding reads) for tests, benches and the
// demo checkpoints: config.json as diffusers writes it plus one safetensors file or shards + index.
import { diffusersConfigBytes, modelFolderFiles, type FolderFile } from '../../io/safetensors/shards.ts';
import { prng } from '../consisid/prng.ts';
import { f32ToBf16, f32ToF16 } from '../../io/safetensors/dtype.ts';
import { numel, type HostTensor } from '../../io/tensor.ts';
import { parseVaeConfig, type VaeConfig } from './config.ts';
import { decoderParameters } from './decoder-layout.ts';

export type VaeWeightDtype = 'float32' | 'float16' | 'bfloat16';

/** the released decoder (CogVideoX-5b's VAE, as ConsisID ships it in vae/) */
export const RELEASED_VAE_CONFIG: Record<string, unknown> = {
  in_channels: 3,
  out_channels: 3,
  down_block_types: Array(4).fill('CogVideoXDownBlock3D'),
  up_block_types: Array(4).fill('CogVideoXUpBlock3D'),
  block_out_channels: [128, 256, 256, 512],
  latent_channels: 16,
  layers_per_block: 3,
  act_fn: 'silu',
  norm_eps: 1e-6,
  norm_num_groups: 32,
  temporal_compression_ratio: 4,
  sample_height: 480,
  sample_width: 720,
  scaling_factor: 0.7,
  force_upcast: true,
  use_quant_conv: false,
  use_post_quant_conv: false,
  invert_scale_latents: false,
};

/** a small decoder (2 blocks of 8 and 16 channels, 16 latent channels) for the demo checkpoints and tests */
export const SMALL_VAE_CONFIG: Record<string, unknown> = {
  ...RELEASED_VAE_CONFIG,
  down_block_types: Array(2).fill('CogVideoXDownBlock3D'),
  up_block_types: Array(2).fill('CogVideoXUpBlock3D'),
  block_out_channels: [8, 16],
  latent_channels: 16,
  layers_per_block: 1,
  norm_num_groups: 4,
};

/** VAE configs by name (`consisid generate --vae`) */
export const NAMED_VAE_CONFIGS: Readonly<Record<string, Record<string, unknown>>> = {
  released: RELEASED_VAE_CONFIG,
  small: SMALL_VAE_CONFIG,
};

function init(name: string, shape: number[], rand: () => number): Float32Array {
  const out = new Float32Array(numel(shape));
  const fill = (offset: number, limit: number) => {
    for (let i = 0; i < out.length; i++) out[i] = offset + (2 * rand() - 1) * limit;
  };
  if (name.endsWith('norm_layer.weight')) fill(1, 0.1);
  else if (shape.length === 1) fill(0, 0.05);
  else fill(0, 1 / Math.sqrt(shape.slice(1).reduce((a, b) => a * b, 1)));
  return out;
}

/** the decoder's random parameters one at a time */
export function* randomVaeTensors(
  config: VaeConfig,
  seed: number,
  dtype: VaeWeightDtype,
): Generator<[string, HostTensor]> {
  const rand = prng(seed);
  for (const [name, shape] of decoderParameters(config)) {
    const v = init(name, shape, rand);
    if (dtype === 'float32') yield [name, { dtype, shape, data: v }];
    else yield [name, { dtype, shape, data: dtype === 'float16' ? f32ToF16(v) : f32ToBf16(v) }];
  }
}

export interface VaeFolderOptions {
  seed?: number;
  dtype?: VaeWeightDtype;
  shards?: number;
  /** path prefix of every file ('vae' for a checkpoint's vae/) */
  prefix?: string;
}

/** config.json as diffusers writes it */
export const vaeConfigFile = (raw: Record<string, unknown>): Uint8Array =>
  diffusersConfigBytes('AutoencoderKLCogVideoX', raw);

/** the files of a random VAE folder, in memory; the config is checked first */
export function randomVaeFiles(rawConfig: Record<string, unknown>, opts: VaeFolderOptions = {}): FolderFile[] {
  const config = parseVaeConfig(rawConfig);
  const tensors = new Map(randomVaeTensors(config, opts.seed ?? 0, opts.dtype ?? 'float32'));
  return modelFolderFiles(vaeConfigFile(rawConfig), tensors, opts);
}
