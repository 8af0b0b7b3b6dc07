// The shard index diffusers writes next to sharded weights.
import { z } from 'zod';

export const WEIGHTS_NAME = 'diffusion_pytorch_model.safetensors';
export const WEIGHTS_INDEX_NAME = 'diffusion_pytorch_model.safetensors.index.json';

const shardName = z
  .string()
  .regex(/^[\w][\w.-]*\.safetensors$/, 'shard names must be plain file names ending in .safetensors');

export const shardIndexSchema = z.object({
  metadata: z.object({ total_size: z.number().nonnegative().optional() }).loose().optional(),
  weight_map: z.record(z.string(), shardName),
});
export type ShardIndex = z.infer<typeof shardIndexSchema>;

export function parseShardIndex(text: string, file: string): ShardIndex {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const r = shardIndexSchema.safeParse(raw);
  if (!r.success)
    throw new Error(`${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

export const shardFiles = (index: ShardIndex): string[] => [...new Set(Object.values(index.weight_map))].sort();
