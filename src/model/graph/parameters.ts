// The diffusers parameter names and shapes a config implies.
import { innerDim, type ConsisIDConfig } from './config.ts';

export type ParameterShapes = Map<string, number[]>;

export function ffProjWidth(c: ConsisIDConfig): number {
  const ff = 4 * innerDim(c);
  return c.activation_fn === 'geglu' || c.activation_fn === 'swiglu' ? 2 * ff : ff;
}

export const numPatches = (c: ConsisIDConfig): number =>
  Math.floor(c.sample_height / c.patch_size) *
  Math.floor(c.sample_width / c.patch_size) *
  (Math.floor((c.sample_frames - 1) / c.temporal_compression_ratio) + 1);

export const crossAttnKvDim = (c: ConsisIDConfig): number => Math.trunc((innerDim(c) / 3) * 2);

export function expectedParameters(c: ConsisIDConfig): ParameterShapes {
  const m: ParameterShapes = new Map();
  const d = innerDim(c);
  const t = c.time_embed_dim;
  const linear = (name: string, out: number, inp: number, bias = true) => {
    m.set(`${name}.weight`, [out, inp]);
    if (bias) m.set(`${name}.bias`, [out]);
  };
  const norm = (name: string, dim: number, affine = true) => {
    if (!affine) return;
    m.set(`${name}.weight`, [dim]);
    m.set(`${name}.bias`, [dim]);
  };
  const p = c.patch_size;
  m.set('patch_embed.proj.weight', [d, c.in_channels, p, p]);
  m.set('patch_embed.proj.bias', [d]);
  linear('patch_embed.text_proj', d, c.text_embed_dim);
  if (c.use_learned_positional_embeddings)
    m.set('patch_embed.pos_embedding', [1, c.max_text_seq_length + numPatches(c), d]);
  linear('time_embedding.linear_1', t, d);
  linear('time_embedding.linear_2', t, t);
  const affine = c.norm_elementwise_affine;
  for (let i = 0; i < c.num_layers; i++) {
    const b = `transformer_blocks.${i}`;
    for (const n of ['norm1', 'norm2']) {
      linear(`${b}.${n}.linear`, 6 * d, t);
      norm(`${b}.${n}.norm`, d, affine);
    }
    norm(`${b}.attn1.norm_q`, c.attention_head_dim);
    norm(`${b}.attn1.norm_k`, c.attention_head_dim);
    for (const n of ['to_q', 'to_k', 'to_v']) linear(`${b}.attn1.${n}`, d, d, c.attention_bias);
    linear(`${b}.attn1.to_out.0`, d, d);
    linear(`${b}.ff.net.0.proj`, ffProjWidth(c), d);
    linear(`${b}.ff.net.2`, d, 4 * d);
  }
  norm('norm_final', d, affine);
  linear('norm_out.linear', 2 * d, t);
  norm('norm_out.norm', d, affine);
  linear('proj_out', p * p * c.out_channels, d);
  if (c.is_train_face) {
    const lfe = 'local_facial_extractor';
    const v = c.LFE_vit_dim;
    const inner = c.LFE_dim_head * c.LFE_num_heads;
    m.set(`${lfe}.latents`, [1, c.LFE_num_querie, v]);
    m.set(`${lfe}.proj_out`, [v, c.LFE_output_dim]);
    for (let j = 0; j < c.LFE_depth; j++) {
      const l = `${lfe}.layers.${j}`;
      norm(`${l}.0.norm1`, v);
      norm(`${l}.0.norm2`, v);
      linear(`${l}.0.to_q`, inner, v, false);
      linear(`${l}.0.to_kv`, 2 * inner, v, false);
      linear(`${l}.0.to_out`, v, inner, false);
      norm(`${l}.1.0`, v);
      linear(`${l}.1.1`, v * c.LFE_ff_mult, v, false);
      linear(`${l}.1.3`, v, v * c.LFE_ff_mult, false);
    }
    for (let s = 0; s < c.LFE_num_scale; s++) {
      const mp = `${lfe}.mapping_${s}`;
      linear(`${mp}.0`, v, v);
      norm(`${mp}.1`, v);
      linear(`${mp}.3`, v, v);
      norm(`${mp}.4`, v);
      linear(`${mp}.6`, v, v);
    }
    const id = `${lfe}.id_embedding_mapping`;
    linear(`${id}.0`, v, c.LFE_id_dim);
    norm(`${id}.1`, v);
    linear(`${id}.3`, v, v);
    norm(`${id}.4`, v);
    linear(`${id}.6`, v * c.LFE_num_id_token, v);
    const kv = crossAttnKvDim(c);
    const cInner = c.cross_attn_dim_head * c.cross_attn_num_heads;
    for (let k = 0; k < Math.floor(c.num_layers / c.cross_attn_interval); k++) {
      const pc = `perceiver_cross_attention.${k}`;
      norm(`${pc}.norm1`, kv);
      norm(`${pc}.norm2`, d);
      linear(`${pc}.to_q`, cInner, d, false);
      linear(`${pc}.to_kv`, 2 * cInner, kv, false);
      linear(`${pc}.to_out`, d, cInner, false);
    }
  }
  return m;
}

export class WeightsError extends Error {
  override name = 'WeightsError';
}

/**
 * What differs between the parameters a config expects and a checkpoint's: missing, unexpected
 * (among those `own` says are the model's) and misshapen, each a line naming up to `shown` of them;
 * empty when they match.
 */
export function parameterMismatches(
  expected: ReadonlyMap<string, readonly number[]>,
  actual: ReadonlyMap<string, readonly number[]>,
  { own = () => true, shown = Infinity }: { own?: (name: string) => boolean; shown?: number } = {},
): string[] {
  const missing = [...expected.keys()].filter((k) => !actual.has(k));
  const unexpected = [...actual.keys()].filter((k) => own(k) && !expected.has(k));
  const misshapen = [...expected.entries()]
    .filter(([k, s]) => actual.has(k) && actual.get(k)!.join(',') !== s.join(','))
    .map(([k, s]) => `${k}: expected [${s.join(', ')}], found [${actual.get(k)!.join(', ')}]`);
  const line = (what: string, names: string[], sep: string) =>
    names.length ? [`${what} ${names.length} parameter(s): ${names.slice(0, shown).join(sep)}`] : [];
  return [
    ...line('missing', missing, ', '),
    ...line('unexpected', unexpected, ', '),
    ...line('wrong shape for', misshapen, '; '),
  ];
}

/** one error listing every missing, unexpected and misshapen parameter */
export function checkParameters(
  c: ConsisIDConfig,
  actual: ReadonlyMap<string, readonly number[]>,
  source: string,
): void {
  const parts = parameterMismatches(expectedParameters(c), actual);
  if (parts.length)
    throw new WeightsError(`weights in ${source} do not match the config:\n  - ${parts.join('\n  - ')}`);
}
