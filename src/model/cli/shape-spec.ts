// `--shape batch=1,frames=4,height=30,width=44,text=226,vit=577,id-batch=1,rotary,timestep-cond`
import type { ConsisIDConfig } from '../config.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { UsageError } from './flags.ts';

const KEYS = ['batch', 'frames', 'height', 'width', 'text', 'vit', 'id-batch', 'rotary', 'no-rotary', 'timestep-cond'];

export function parseShapeSpec(spec: string | undefined, c: ConsisIDConfig): GraphShape {
  const kv = new Map<string, string | true>();
  for (const part of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [k, v] = part.split('=', 2) as [string, string | undefined];
    if (!KEYS.includes(k)) throw new UsageError(`--shape: unknown key "${k}" (use ${KEYS.join(', ')})`);
    kv.set(k, v ?? true);
  }
  const num = (k: string, def: number): number => {
    const v = kv.get(k);
    if (v === undefined) return def;
    const n = Number(v);
    if (v === true || !Number.isInteger(n) || n < 1) throw new UsageError(`--shape: ${k} must be a positive integer`);
    return n;
  };
  const frames = Math.floor((c.sample_frames - 1) / c.temporal_compression_ratio) + 1;
  const height = num('height', c.sample_height);
  const width = num('width', c.sample_width);
  if (height % c.patch_size || width % c.patch_size) throw new UsageError(`--shape: height and width must be multiples of patch_size (${c.patch_size})`);
  const idBatch = num('id-batch', 1);
  const vit = num('vit', 577);
  return {
    batch: num('batch', 1),
    frames: num('frames', frames),
    height,
    width,
    textLength: num('text', c.max_text_seq_length),
    timestepCond: kv.has('timestep-cond'),
    rotary: kv.has('no-rotary') ? false : c.use_rotary_positional_embeddings,
    face: c.is_train_face ? { idBatch, vitLengths: Array<number>(c.LFE_num_scale).fill(vit) } : null,
  };
}
