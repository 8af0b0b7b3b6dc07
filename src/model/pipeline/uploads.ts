// Uploaded .safetensors inputs: text embeddings and identity tensors, checked against the config.
import type { ConsisIDConfig } from '../graph/config.ts';
import { entryToFloat32, parseSafetensors } from '../io/safetensors/read.ts';
import { writeSafetensors } from '../io/safetensors/write.ts';
import type { F32Tensor } from './inputs.ts';
import type { Uploads } from './run-types.ts';

function tensors(bytes: Uint8Array, file: string): Map<string, F32Tensor> {
  const f = parseSafetensors(bytes, file);
  const out = new Map<string, F32Tensor>();
  for (const [name, e] of f.tensors)
    out.set(name, { dtype: 'float32', shape: [...e.shape], data: entryToFloat32(e, file) });
  return out;
}

/** `encoder_hidden_states` (or the file's only tensor): (1, L, D) or (L, D), D = text_embed_dim. */
export function parseTextUpload(bytes: Uint8Array, file: string, c: ConsisIDConfig): F32Tensor {
  const all = tensors(bytes, file);
  const t = all.get('encoder_hidden_states') ?? (all.size === 1 ? [...all.values()][0] : undefined);
  if (!t)
    throw new Error(`${file}: no tensor named encoder_hidden_states (found ${[...all.keys()].join(', ') || 'none'})`);
  const shape = t.shape.length === 2 ? [1, ...t.shape] : t.shape;
  if (shape.length !== 3 || shape[0] !== 1 || shape[2] !== c.text_embed_dim) {
    throw new Error(`${file}: text embeddings must be (1, L, ${c.text_embed_dim}); got (${t.shape.join(', ')})`);
  }
  if (shape[1]! < 1 || shape[1]! > c.max_text_seq_length)
    throw new Error(`${file}: text length ${shape[1]} is outside 1..${c.max_text_seq_length}`);
  return { ...t, shape };
}

/** `id_cond` (1, LFE_id_dim) and `id_vit_hidden.0` .. `id_vit_hidden.{N-1}` (1, T, LFE_vit_dim), as the fixtures store them. */
export function parseIdentityUpload(
  bytes: Uint8Array,
  file: string,
  c: ConsisIDConfig,
): { idCond: F32Tensor; idVitHidden: F32Tensor[] } {
  const all = tensors(bytes, file);
  const idCond = all.get('id_cond');
  if (!idCond) throw new Error(`${file}: no tensor named id_cond`);
  if (idCond.shape.length !== 2 || idCond.shape[0] !== 1 || idCond.shape[1] !== c.LFE_id_dim)
    throw new Error(`${file}: id_cond must be (1, ${c.LFE_id_dim}); got (${idCond.shape.join(', ')})`);
  const idVitHidden: F32Tensor[] = [];
  for (let i = 0; i < c.LFE_num_scale; i++) {
    const t = all.get(`id_vit_hidden.${i}`);
    if (!t)
      throw new Error(
        `${file}: no tensor named id_vit_hidden.${i} (the config has LFE_num_scale = ${c.LFE_num_scale})`,
      );
    if (t.shape.length !== 3 || t.shape[0] !== 1 || t.shape[2] !== c.LFE_vit_dim)
      throw new Error(`${file}: id_vit_hidden.${i} must be (1, T, ${c.LFE_vit_dim}); got (${t.shape.join(', ')})`);
    idVitHidden.push(t);
  }
  return { idCond, idVitHidden };
}

/** an uploaded .safetensors as the run's inputs: text embeddings (`kind` text) or the identity tensors, checked against the config */
export const parseUpload = (bytes: Uint8Array, file: string, kind: 'text' | 'identity', c: ConsisIDConfig): Uploads =>
  kind === 'text' ? { text: parseTextUpload(bytes, file, c) } : parseIdentityUpload(bytes, file, c);

/** the run's output as a .safetensors file: one tensor, `sample`, with the run's metadata */
export function outputSafetensors(sample: Float32Array, shape: number[], metadata: Record<string, string>): Uint8Array {
  return writeSafetensors({ sample: { dtype: 'float32', shape, data: sample } }, metadata);
}
