// Gathers the tensors of one or more safetensors files (shards) into one name -> entry map.
import { SafetensorsError, type SafetensorsEntry, type SafetensorsFile } from './read.ts';
import type { ShardIndex } from './index-file.ts';

export interface WeightEntry extends SafetensorsEntry {
  file: string;
}

export type WeightSet = ReadonlyMap<string, WeightEntry>;

export function collectWeights(files: readonly SafetensorsFile[], index?: { index: ShardIndex; file: string }): WeightSet {
  const out = new Map<string, WeightEntry>();
  for (const f of files) {
    for (const [name, e] of f.tensors) {
      const prev = out.get(name);
      if (prev) throw new SafetensorsError(`tensor "${name}" appears in both ${prev.file} and ${f.file}`);
      out.set(name, { ...e, file: f.file });
    }
  }
  if (index) {
    const wrong: string[] = [];
    for (const [name, shard] of Object.entries(index.index.weight_map)) {
      const e = out.get(name);
      if (!e) wrong.push(`"${name}" is mapped to ${shard} but no shard holds it`);
      else if (!e.file.endsWith(shard)) wrong.push(`"${name}" is mapped to ${shard} but found in ${e.file}`);
    }
    for (const name of out.keys()) if (!(name in index.index.weight_map)) wrong.push(`"${name}" is in a shard but not in the index`);
    if (wrong.length) throw new SafetensorsError(`${index.file} disagrees with the shards: ${wrong.slice(0, 20).join('; ')}${wrong.length > 20 ? `; and ${wrong.length - 20} more` : ''}`);
  }
  return out;
}

export const weightShapes = (w: WeightSet): Map<string, number[]> => new Map([...w].map(([k, e]) => [k, e.shape]));
