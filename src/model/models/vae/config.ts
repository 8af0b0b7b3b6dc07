// AutoencoderKLCogVideoX configuration (vae/config.json as diffusers writes it): the decoder's
// parameters with their defaults. Values the decoder cannot honour fail here, naming the key.
import { z } from 'zod';

const posInt = z.number().int().positive();

export const vaeConfigSchema = z
  .object({
    in_channels: posInt.default(3),
    out_channels: posInt.default(3),
    down_block_types: z.array(z.literal('CogVideoXDownBlock3D')).optional(),
    up_block_types: z.array(z.literal('CogVideoXUpBlock3D')).min(1).optional(),
    block_out_channels: z.array(posInt).min(1).default([128, 256, 256, 512]),
    latent_channels: posInt.default(16),
    layers_per_block: posInt.default(3),
    act_fn: z.enum(['silu', 'swish']).default('silu'),
    norm_eps: z.number().positive().default(1e-6),
    norm_num_groups: posInt.default(32),
    temporal_compression_ratio: posInt.default(4),
    sample_height: posInt.default(480),
    sample_width: posInt.default(720),
    scaling_factor: z.number().positive().default(1.15258426),
    shift_factor: z.number().nullable().default(null),
    latents_mean: z.array(z.number()).nullable().default(null),
    latents_std: z.array(z.number()).nullable().default(null),
    force_upcast: z.union([z.boolean(), z.number()]).default(true),
    use_quant_conv: z.boolean().default(false),
    use_post_quant_conv: z.boolean().default(false),
    invert_scale_latents: z.boolean().default(false),
  })
  .loose();

export type VaeConfig = z.infer<typeof vaeConfigSchema>;

export class VaeConfigError extends Error {
  override name = 'VaeConfigError';
}

export function parseVaeConfig(raw: unknown, file = 'vae/config.json'): VaeConfig {
  const r = vaeConfigSchema.safeParse(raw);
  if (!r.success)
    throw new VaeConfigError(`${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const c = r.data;
  const cls = (raw as { _class_name?: unknown })._class_name;
  if (cls !== undefined && cls !== 'AutoencoderKLCogVideoX')
    throw new VaeConfigError(
      `${file}: a ${String(cls)} config, not AutoencoderKLCogVideoX: name the checkpoint's vae/ folder`,
    );
  const fail = (msg: string) => {
    throw new VaeConfigError(`${file}: ${msg}`);
  };
  if (c.up_block_types && c.up_block_types.length !== c.block_out_channels.length)
    fail(`up_block_types has ${c.up_block_types.length} entries, block_out_channels ${c.block_out_channels.length}`);
  const bad = c.block_out_channels.find((ch) => ch % c.norm_num_groups !== 0);
  if (bad !== undefined)
    fail(`block_out_channels entry ${bad} is not a multiple of norm_num_groups ${c.norm_num_groups}`);
  const level = Math.log2(c.temporal_compression_ratio);
  if (!Number.isInteger(level)) fail(`temporal_compression_ratio ${c.temporal_compression_ratio} is not a power of 2`);
  if (c.use_post_quant_conv) fail('use_post_quant_conv: true is not supported (no CogVideoX checkpoint has it)');
  if (c.shift_factor !== null || c.latents_mean !== null || c.latents_std !== null)
    fail(
      'shift_factor / latents_mean / latents_std are not supported: the ConsisID pipeline only divides by scaling_factor',
    );
  return c;
}

/** output pixels per latent pixel: 2^(blocks - 1) */
export const spatialScale = (c: VaeConfig): number => 2 ** (c.block_out_channels.length - 1);

/** the up blocks that also upsample time (the first log2(temporal_compression_ratio)) */
export const temporalLevels = (c: VaeConfig): number => Math.log2(c.temporal_compression_ratio);

/** video frames the decoder makes of `latentFrames` latent frames decoded in one batch (first frame apart) */
export function framesOfBatch(c: VaeConfig, latentFrames: number): number {
  let t = latentFrames;
  const ups = Math.min(temporalLevels(c), c.block_out_channels.length - 1);
  for (let i = 0; i < ups; i++) t = t > 1 && t % 2 === 1 ? 1 + 2 * (t - 1) : t > 1 ? 2 * t : 1;
  return t;
}

/**
 * The latent frame batches of the pipeline's decode: batches of 2, the remainder joins the first
 * (5 frames: [0, 3), [3, 5); 1 frame: [0, 1)).
 */
export function frameBatches(frames: number, batch = 2): [number, number][] {
  const n = Math.max(Math.floor(frames / batch), 1);
  const rest = frames % batch;
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) out.push([batch * i + (i === 0 ? 0 : rest), Math.min(frames, batch * (i + 1) + rest)]);
  return out;
}
