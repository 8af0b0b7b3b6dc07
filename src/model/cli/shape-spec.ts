// `--shape batch=1,frames=4,height=30,width=44,text=226,vit=577,id-batch=1,rotary,timestep-cond`
import type { ConsisIDConfig } from '../graph/config.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { UsageError, type FlagSpecs } from './flags.ts';

const NUMBERS = ['batch', 'frames', 'height', 'width', 'text', 'vit', 'id-batch'];
const SWITCHES = ['rotary', 'no-rotary', 'timestep-cond'];
const KEYS = [...NUMBERS, ...SWITCHES];

/** `--shape` of the commands that build a graph (export, plan) or its inputs (generate) */
export const SHAPE_FLAG = {
  shape: {
    value: 'batch=1,frames=13,height=60,width=90,text=226,vit=577,id-batch=1,rotary|no-rotary,timestep-cond',
    help: "the latent size and inputs to build for; every key optional (default: batch 1, the config's sample size and text length, vit 577, rotary as configured)",
  },
} as const satisfies FlagSpecs;

const fail = (message: string): never => {
  throw new UsageError(`--shape: ${message}`);
};

/**
 * The shape a graph is built for. Accepts exactly the shapes the model's forward takes
 * (`prepareForward`'s checks, here in terms of the keys), so `export` and `plan` never build a
 * graph the forward would refuse.
 */
export function parseShapeSpec(spec: string | undefined, c: ConsisIDConfig): GraphShape {
  const kv = new Map<string, string | true>();
  for (const part of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    if (!KEYS.includes(k)) fail(`unknown key "${k}" (use ${KEYS.join(', ')})`);
    if (kv.has(k)) fail(`${k} is given twice`);
    if (eq >= 0 && SWITCHES.includes(k)) fail(`${k} takes no value`);
    kv.set(k, eq < 0 ? true : part.slice(eq + 1));
  }
  const num = (k: string, def: number): number => {
    const v = kv.get(k);
    if (v === undefined) return def;
    const n = Number(v);
    if (v === true || v.trim() === '' || !Number.isInteger(n) || n < 1) fail(`${k} must be a positive integer`);
    return n;
  };
  if (kv.has('rotary') && kv.has('no-rotary')) fail('rotary and no-rotary contradict each other: give one');
  if (kv.has('rotary') && !c.use_rotary_positional_embeddings)
    fail('rotary: this config has no rotary positional embeddings');
  for (const k of ['vit', 'id-batch'])
    if (kv.has(k) && !c.is_train_face) fail(`${k}: this config has no identity module (is_train_face is false)`);
  const batch = num('batch', 1);
  const frames = num('frames', Math.floor((c.sample_frames - 1) / c.temporal_compression_ratio) + 1);
  const height = num('height', c.sample_height);
  const width = num('width', c.sample_width);
  const textLength = num('text', c.max_text_seq_length);
  const idBatch = num('id-batch', 1);
  const vit = num('vit', 577);
  if (height % c.patch_size || width % c.patch_size)
    fail(`height and width must be multiples of patch_size (${c.patch_size})`);
  if (textLength > c.max_text_seq_length)
    fail(`text must be at most max_text_seq_length (${c.max_text_seq_length}), got ${textLength}`);
  if (c.use_learned_positional_embeddings) {
    const learned = "this config's learned positional embeddings need";
    if (height !== c.sample_height || width !== c.sample_width)
      fail(`${learned} height=${c.sample_height},width=${c.sample_width}, got ${height}x${width}`);
    const configuredFrames = (frames - 1) * c.temporal_compression_ratio + 1 === c.sample_frames;
    if (configuredFrames && textLength !== c.max_text_seq_length)
      fail(`${learned} text=${c.max_text_seq_length} at frames=${frames}, got ${textLength}`);
  }
  if (idBatch !== 1 && idBatch !== batch) fail(`id-batch must be 1 or batch (${batch}), got ${idBatch}`);
  return {
    batch,
    frames,
    height,
    width,
    textLength,
    timestepCond: kv.has('timestep-cond'),
    rotary: kv.has('no-rotary') ? false : c.use_rotary_positional_embeddings,
    face: c.is_train_face ? { idBatch, vitLengths: Array<number>(c.LFE_num_scale).fill(vit) } : null,
  };
}
