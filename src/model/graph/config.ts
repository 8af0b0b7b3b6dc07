// ConsisIDTransformer3DModel configuration: every interface parameter with its default, plus the
// real config keys checkpoints carry. Impossible combinations fail here, naming the parameters.
import { z } from 'zod';

export const FEED_FORWARD_ACTIVATIONS = [
  'gelu',
  'gelu-approximate',
  'geglu',
  'geglu-approximate',
  'swiglu',
  'linear-silu',
] as const;
export const TIMESTEP_ACTIVATIONS = ['silu', 'swish', 'mish', 'gelu', 'relu'] as const;

const posInt = z.number().int().positive();
/** "int, optional" parameters: null (Python None) falls back to the default */
const optInt = (def: number) =>
  posInt
    .nullable()
    .default(def)
    .transform((v) => v ?? def);

export const consisIDConfigShape = {
  num_attention_heads: posInt.default(30),
  attention_head_dim: posInt.default(64),
  in_channels: posInt.default(16),
  out_channels: posInt.nullable().default(16),
  flip_sin_to_cos: z.boolean().default(true),
  freq_shift: z.number().default(0),
  time_embed_dim: posInt.default(512),
  text_embed_dim: posInt.default(4096),
  num_layers: z.number().int().nonnegative().default(30),
  dropout: z.number().min(0).max(1).default(0),
  attention_bias: z.boolean().default(true),
  sample_width: posInt.default(90),
  sample_height: posInt.default(60),
  sample_frames: posInt.default(49),
  patch_size: posInt.default(2),
  temporal_compression_ratio: posInt.default(4),
  max_text_seq_length: posInt.default(226),
  activation_fn: z.string().default('gelu-approximate'),
  timestep_activation_fn: z.string().default('silu'),
  norm_elementwise_affine: z.boolean().default(true),
  norm_eps: z.number().positive().default(1e-5),
  spatial_interpolation_scale: z.number().positive().default(1.875),
  temporal_interpolation_scale: z.number().positive().default(1.0),
  use_rotary_positional_embeddings: z.boolean().default(false),
  use_learned_positional_embeddings: z.boolean().default(false),
  is_train_face: z.boolean().default(false),
  is_kps: z.boolean().default(false),
  cross_attn_interval: posInt.default(2),
  cross_attn_dim_head: optInt(128),
  cross_attn_num_heads: optInt(16),
  LFE_id_dim: optInt(1280),
  LFE_vit_dim: optInt(1024),
  LFE_depth: optInt(10),
  LFE_dim_head: optInt(64),
  LFE_num_heads: optInt(16),
  LFE_num_id_token: optInt(5),
  LFE_num_querie: optInt(32),
  LFE_output_dim: optInt(2048),
  LFE_ff_mult: optInt(4),
  LFE_num_scale: optInt(5),
  local_face_scale: z.number().default(1.0),
};

type Issue = { path: string[]; message: string };

function crossFieldIssues(c: z.infer<z.ZodObject<typeof consisIDConfigShape>>): Issue[] {
  const issues: Issue[] = [];
  const inner = c.num_attention_heads * c.attention_head_dim;
  if (!(FEED_FORWARD_ACTIVATIONS as readonly string[]).includes(c.activation_fn)) {
    issues.push({
      path: ['activation_fn'],
      message: `activation_fn "${c.activation_fn}" is not supported; use one of ${FEED_FORWARD_ACTIVATIONS.join(', ')}`,
    });
  }
  if (!(TIMESTEP_ACTIVATIONS as readonly string[]).includes(c.timestep_activation_fn.toLowerCase())) {
    issues.push({
      path: ['timestep_activation_fn'],
      message: `timestep_activation_fn "${c.timestep_activation_fn}" is not supported; use one of ${TIMESTEP_ACTIVATIONS.join(', ')}`,
    });
  }
  if (c.use_learned_positional_embeddings && !c.use_rotary_positional_embeddings) {
    issues.push({
      path: ['use_learned_positional_embeddings'],
      message:
        'use_learned_positional_embeddings requires use_rotary_positional_embeddings (no such checkpoints exist without rotary embeddings)',
    });
  }
  const sincos = !c.use_rotary_positional_embeddings || c.use_learned_positional_embeddings;
  if (sincos && inner % 16 !== 0) {
    issues.push({
      path: ['num_attention_heads', 'attention_head_dim'],
      message: `the 3D sincos positional table splits inner_dim = num_attention_heads * attention_head_dim = ${inner} into even temporal/height/width parts: it must be a multiple of 16`,
    });
  }
  if (c.use_rotary_positional_embeddings && c.attention_head_dim % 16 !== 0) {
    issues.push({
      path: ['attention_head_dim'],
      message: `rotary embeddings split attention_head_dim = ${c.attention_head_dim} into even temporal (1/4) and height/width (3/8 each) parts: it must be a multiple of 16`,
    });
  }
  if (c.LFE_depth % c.LFE_num_scale !== 0) {
    issues.push({
      path: ['LFE_depth', 'LFE_num_scale'],
      message: `LFE_depth (${c.LFE_depth}) must be a multiple of LFE_num_scale (${c.LFE_num_scale})`,
    });
  }
  if (c.is_train_face) {
    const kvDim = Math.trunc((inner / 3) * 2);
    if (c.LFE_output_dim !== kvDim) {
      issues.push({
        path: ['LFE_output_dim'],
        message: `with is_train_face, LFE_output_dim (${c.LFE_output_dim}) must equal int(inner_dim * 2 / 3) = ${kvDim}, inner_dim = num_attention_heads * attention_head_dim = ${inner}`,
      });
    }
    if (c.num_layers % c.cross_attn_interval !== 0) {
      issues.push({
        path: ['num_layers', 'cross_attn_interval'],
        message: `with is_train_face, num_layers (${c.num_layers}) must be a multiple of cross_attn_interval (${c.cross_attn_interval})`,
      });
    }
  }
  return issues;
}

export const consisIDConfigSchema = z.preprocess(
  (raw) =>
    raw && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('_')))
      : raw,
  z
    .strictObject(consisIDConfigShape)
    .superRefine((c, ctx) => {
      for (const i of crossFieldIssues(c)) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
    })
    .transform((c) => ({
      ...c,
      out_channels: c.out_channels ?? c.in_channels,
      timestep_activation_fn: c.timestep_activation_fn.toLowerCase(),
    })),
);

export type ConsisIDConfig = z.output<typeof consisIDConfigSchema>;
/** what a config.json may hold (before defaults), underscore keys aside */
export type ConsisIDConfigInput = z.input<z.ZodObject<typeof consisIDConfigShape>>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function parseConfig(raw: unknown, source = 'config'): ConsisIDConfig {
  const r = consisIDConfigSchema.safeParse(raw);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') return `unknown parameter(s) ${i.keys.join(', ')}`;
    return i.code === 'custom' ? i.message : `${i.path.join('.')}: ${i.message}`;
  });
  throw new ConfigError(`invalid ConsisID ${source}:\n  - ${lines.join('\n  - ')}`);
}

export const innerDim = (c: ConsisIDConfig): number => c.num_attention_heads * c.attention_head_dim;

/** the sample_frames value that builds a transformer for K latent frames */
export const sampleFramesFor = (
  latentFrames: number,
  config: Pick<ConsisIDConfig, 'temporal_compression_ratio'>,
): number => (latentFrames - 1) * config.temporal_compression_ratio + 1;
