// Checks forward() arguments against the config and turns them into graph feeds, so that wrong
// shapes, dtypes or missing inputs fail with a clear message before anything runs.
import { toFloat32 } from '../../io/safetensors/dtype.ts';
import { numel, formatShape, type HostTensor } from '../../io/tensor.ts';
import type { ConsisIDConfig } from '../../graph/config.ts';
import type { GraphShape } from '../../graph/transformer.ts';
import type { FloatTensor } from '../../runtime/types.ts';

export interface ForwardInputs {
  /** (batch, frames, channels, height, width) */
  hidden_states: HostTensor;
  /** (batch, sequence_len, text_embed_dim) */
  encoder_hidden_states: HostTensor;
  /** a number, or a tensor of shape (), (1,) or (batch,), integer or float */
  timestep: number | bigint | HostTensor;
  /** (batch, time_embed_dim), summed with the time embedding output */
  timestep_cond?: HostTensor | null;
  /** [cos, sin], each (frames * h/p * w/p, attention_head_dim) */
  image_rotary_emb?: readonly [HostTensor, HostTensor] | null;
  attention_kwargs?: Record<string, unknown> | null;
  /** (1 or batch, LFE_id_dim) */
  id_cond?: HostTensor | null;
  /** LFE_num_scale tensors of (1 or batch, tokens, LFE_vit_dim) */
  id_vit_hidden?: readonly HostTensor[] | null;
}

export interface ForwardArgs extends ForwardInputs {
  return_dict?: boolean;
}

export class ForwardInputError extends Error {
  override name = 'ForwardInputError';
}

const KNOWN_ARGS = new Set([
  'hidden_states',
  'encoder_hidden_states',
  'timestep',
  'timestep_cond',
  'image_rotary_emb',
  'attention_kwargs',
  'id_cond',
  'id_vit_hidden',
  'return_dict',
]);
const KNOWN_ATTENTION_KWARGS = new Set(['scale']);
const FLOAT_DTYPES = new Set(['float32', 'float16', 'bfloat16', 'float64']);

function fail(msg: string): never {
  throw new ForwardInputError(msg);
}

function isTensor(x: unknown): x is HostTensor {
  return (
    typeof x === 'object' &&
    x !== null &&
    'dtype' in x &&
    'shape' in x &&
    'data' in x &&
    Array.isArray((x as HostTensor).shape)
  );
}

function checkTensor(
  name: string,
  t: unknown,
  expected: (number | null)[],
  opts: { float?: boolean } = { float: true },
): HostTensor {
  if (!isTensor(t)) fail(`${name} must be a tensor { dtype, shape, data }`);
  if (opts.float && !FLOAT_DTYPES.has(t.dtype)) fail(`${name} must be a floating-point tensor, got dtype ${t.dtype}`);
  if (t.data.length !== numel(t.shape))
    fail(`${name}: data has ${t.data.length} values but shape ${formatShape(t.shape)} needs ${numel(t.shape)}`);
  const wanted = expected.map((d) => (d === null ? '*' : String(d))).join(', ');
  if (t.shape.length !== expected.length || t.shape.some((d, i) => expected[i] !== null && expected[i] !== d)) {
    fail(`${name} must have shape (${wanted}), got ${formatShape(t.shape)}`);
  }
  return t;
}

const feed = (t: HostTensor): FloatTensor => ({ data: toFloat32(t.dtype, t.data), dims: t.shape });

function timestepFeed(ts: ForwardArgs['timestep'], batch: number): FloatTensor {
  let values: number[];
  if (typeof ts === 'number' || typeof ts === 'bigint') values = [Number(ts)];
  else {
    if (!isTensor(ts)) fail('timestep must be a number or a tensor');
    if (ts.shape.length > 1) fail(`timestep must be a number or a 1-D tensor, got shape ${formatShape(ts.shape)}`);
    if (ts.data.length !== numel(ts.shape))
      fail(`timestep: data has ${ts.data.length} values but shape ${formatShape(ts.shape)} needs ${numel(ts.shape)}`);
    values = Array.from(
      ts.dtype === 'int64' ? Array.from(ts.data as BigInt64Array, Number) : toFloat32(ts.dtype, ts.data),
    );
  }
  if (values.length !== 1 && values.length !== batch)
    fail(`timestep must hold 1 or batch_size (${batch}) values, got ${values.length}`);
  if (values.some((v) => !Number.isFinite(v))) fail('timestep values must be finite');
  // the reference casts timesteps to float32 before the sinusoidal embedding
  const data = Float32Array.from({ length: batch }, (_, i) => values[values.length === 1 ? 0 : i]!);
  return { data, dims: [batch] };
}

export interface PreparedForward {
  shape: GraphShape;
  feeds: Record<string, FloatTensor>;
  returnDict: boolean;
}

export function prepareForward(c: ConsisIDConfig, args: ForwardArgs): PreparedForward {
  if (typeof args !== 'object' || args === null) fail('forward() takes one object of named inputs');
  const unknown = Object.keys(args).filter((k) => !KNOWN_ARGS.has(k));
  if (unknown.length) fail(`unknown forward argument(s): ${unknown.join(', ')}`);
  if (args.attention_kwargs) {
    const bad = Object.keys(args.attention_kwargs).filter((k) => !KNOWN_ATTENTION_KWARGS.has(k));
    if (bad.length)
      fail(
        `attention_kwargs: unsupported key(s) ${bad.join(', ')}; only "scale" (LoRA scale, no effect without LoRA layers) is accepted`,
      );
    const s = args.attention_kwargs.scale;
    if (s !== undefined && typeof s !== 'number') fail('attention_kwargs.scale must be a number');
  }
  if (args.return_dict !== undefined && typeof args.return_dict !== 'boolean') fail('return_dict must be a boolean');
  const p = c.patch_size;
  const hs = checkTensor('hidden_states', args.hidden_states, [null, null, c.in_channels, null, null]);
  const [b, f, , h, w] = hs.shape as [number, number, number, number, number];
  if (b < 1 || f < 1 || h < 1 || w < 1) fail(`hidden_states must not be empty, got ${formatShape(hs.shape)}`);
  if (h % p || w % p) fail(`hidden_states height and width (${h}, ${w}) must be multiples of patch_size (${p})`);
  const enc = checkTensor('encoder_hidden_states', args.encoder_hidden_states, [b, null, c.text_embed_dim]);
  const t = enc.shape[1]!;
  if (t < 1 || t > c.max_text_seq_length)
    fail(
      `encoder_hidden_states sequence length ${t} must be between 1 and max_text_seq_length (${c.max_text_seq_length})`,
    );
  const pre = (f - 1) * c.temporal_compression_ratio + 1;
  if (c.use_learned_positional_embeddings) {
    if (h !== c.sample_height || w !== c.sample_width)
      fail(
        `learned positional embeddings need latents of the configured size ${c.sample_height}x${c.sample_width}, got ${h}x${w}`,
      );
    if (pre === c.sample_frames && t !== c.max_text_seq_length)
      fail(
        `learned positional embeddings need encoder_hidden_states of exactly max_text_seq_length (${c.max_text_seq_length}) tokens, got ${t}`,
      );
  }
  const feeds: Record<string, FloatTensor> = {
    hidden_states: feed(hs),
    encoder_hidden_states: feed(enc),
    timestep: timestepFeed(args.timestep, b),
  };
  if (args.timestep_cond)
    feeds.timestep_cond = feed(checkTensor('timestep_cond', args.timestep_cond, [b, c.time_embed_dim]));
  const video = f * (h / p) * (w / p);
  let rotary = false;
  if (args.image_rotary_emb) {
    if (!c.use_rotary_positional_embeddings)
      fail(
        'image_rotary_emb was given but this model has no rotary positional embeddings (use_rotary_positional_embeddings is false)',
      );
    if (!Array.isArray(args.image_rotary_emb) || args.image_rotary_emb.length !== 2)
      fail('image_rotary_emb must be a pair [cos, sin]');
    feeds['image_rotary_emb.cos'] = feed(
      checkTensor('image_rotary_emb[0] (cos)', args.image_rotary_emb[0], [video, c.attention_head_dim]),
    );
    feeds['image_rotary_emb.sin'] = feed(
      checkTensor('image_rotary_emb[1] (sin)', args.image_rotary_emb[1], [video, c.attention_head_dim]),
    );
    rotary = true;
  }
  let face: GraphShape['face'] = null;
  if (c.is_train_face) {
    if (!args.id_cond || !args.id_vit_hidden)
      fail(
        `this model has the identity module (is_train_face): id_cond and id_vit_hidden (${c.LFE_num_scale} tensors) are required`,
      );
    const idc = checkTensor('id_cond', args.id_cond, [null, c.LFE_id_dim]);
    const bi = idc.shape[0]!;
    if (bi !== 1 && bi !== b) fail(`id_cond batch must be 1 or batch_size (${b}), got ${bi}`);
    if (!Array.isArray(args.id_vit_hidden) || args.id_vit_hidden.length !== c.LFE_num_scale) {
      fail(
        `id_vit_hidden must be a list of LFE_num_scale (${c.LFE_num_scale}) tensors, got ${Array.isArray(args.id_vit_hidden) ? args.id_vit_hidden.length : typeof args.id_vit_hidden}`,
      );
    }
    feeds.id_cond = feed(idc);
    const lengths = args.id_vit_hidden.map((v, i) => {
      const vt = checkTensor(`id_vit_hidden[${i}]`, v, [bi, null, c.LFE_vit_dim]);
      if (vt.shape[1]! < 1) fail(`id_vit_hidden[${i}] has no tokens`);
      feeds[`id_vit_hidden.${i}`] = feed(vt);
      return vt.shape[1]!;
    });
    face = { idBatch: bi, vitLengths: lengths };
  }
  return {
    shape: {
      batch: b,
      frames: f,
      height: h,
      width: w,
      textLength: t,
      timestepCond: Boolean(args.timestep_cond),
      rotary,
      face,
    },
    feeds,
    returnDict: args.return_dict ?? true,
  };
}
