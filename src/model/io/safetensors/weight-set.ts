// Gathers the tensors of one or more safetensors files (shards) into one name -> entry map.
import { SafetensorsError, type SafetensorsHeader, type SafetensorsTensorInfo } from './read.ts';
import type { ShardIndex } from './index-file.ts';

export interface WeightEntry extends SafetensorsTensorInfo {
  /** the file, described for messages (path or URL) */
  file: string;
  /** the file's name in the checkpoint: the external-data location graphs use for this tensor */
  fileName: string;
  /** the tensor's bytes when its file is held in memory */
  bytes?: Uint8Array;
}

export type WeightSet = ReadonlyMap<string, WeightEntry>;

export interface WeightFile {
  /** the file's name in the checkpoint */
  name: string;
  header: SafetensorsHeader;
  /** the whole file, when it is in memory */
  bytes?: Uint8Array;
}

export function collectWeights(files: readonly WeightFile[], index?: { index: ShardIndex; file: string }): WeightSet {
  const out = new Map<string, WeightEntry>();
  for (const f of files) {
    for (const [name, t] of f.header.tensors) {
      const prev = out.get(name);
      if (prev) throw new SafetensorsError(`tensor "${name}" appears in both ${prev.file} and ${f.header.file}`);
      const entry: WeightEntry = { ...t, file: f.header.file, fileName: f.name };
      if (f.bytes) entry.bytes = f.bytes.subarray(t.offset, t.offset + t.length);
      out.set(name, entry);
    }
  }
  if (index) {
    const wrong: string[] = [];
    for (const [name, shard] of Object.entries(index.index.weight_map)) {
      const e = out.get(name);
      if (!e) wrong.push(`"${name}" is mapped to ${shard} but no shard holds it`);
      else if (e.fileName !== shard) wrong.push(`"${name}" is mapped to ${shard} but found in ${e.file}`);
    }
    for (const name of out.keys())
      if (!(name in index.index.weight_map)) wrong.push(`"${name}" is in a shard but not in the index`);
    if (wrong.length)
      throw new SafetensorsError(
        `${index.file} disagrees with the shards: ${wrong.slice(0, 20).join('; ')}${wrong.length > 20 ? `; and ${wrong.length - 20} more` : ''}`,
      );
  }
  return out;
}

export const weightShapes = (w: WeightSet): Map<string, number[]> => new Map([...w].map(([k, e]) => [k, e.shape]));
