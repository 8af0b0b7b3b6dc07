// Reads config.json and the safetensors headers (single file or shards + index) of a diffusers
// transformer. Tensor bytes stay where they are: sources that can be read in parts (local files)
// are not read past their headers; sessions take the tensors from the files.
import { parseConfig, type ConsisIDConfig } from '../../graph/config.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME, parseShardIndex, shardFiles } from '../../io/safetensors/index-file.ts';
import { collectWeights, weightShapes, type WeightFile, type WeightSet } from '../../io/safetensors/weight-set.ts';
import { checkParameters } from '../../graph/parameters.ts';
import type { FileSource, ReadOptions } from '../../io/file-source.ts';
import {
  openWeightFile,
  readSafetensorsHeaderFrom,
  type CheckpointFile,
  type CheckpointFiles,
} from '../../io/checkpoint-file.ts';

export interface Checkpoint {
  config: ConsisIDConfig;
  weights: WeightSet;
  /** the weight files, by the names graphs use as external-data locations */
  files: CheckpointFiles;
}

export type LoadOptions = ReadOptions;

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

async function required(source: FileSource, file: string, opts: LoadOptions): Promise<Uint8Array> {
  const bytes = await source.read(file, opts);
  if (!bytes) throw new CheckpointError(`${source.describe(file)} not found`);
  return bytes;
}

async function readWeightFile(f: CheckpointFile): Promise<WeightFile> {
  const header = await readSafetensorsHeaderFrom(f, f.describe);
  return f.bytes ? { name: f.name, header, bytes: f.bytes } : { name: f.name, header };
}

export async function loadCheckpoint(source: FileSource, opts: LoadOptions = {}): Promise<Checkpoint> {
  const configText = new TextDecoder().decode(await required(source, 'config.json', opts));
  let raw: unknown;
  try {
    raw = JSON.parse(configText);
  } catch (e) {
    throw new CheckpointError(`${source.describe('config.json')}: not valid JSON (${(e as Error).message})`, {
      cause: e,
    });
  }
  const config = parseConfig(raw, source.describe('config.json'));
  const indexBytes = await source.read(WEIGHTS_INDEX_NAME, opts);
  const files = new Map<string, CheckpointFile>();
  let weights: WeightSet;
  if (indexBytes) {
    const indexFile = source.describe(WEIGHTS_INDEX_NAME);
    const index = parseShardIndex(new TextDecoder().decode(indexBytes), indexFile);
    const parsed: WeightFile[] = [];
    for (const shard of shardFiles(index)) {
      const f = await openWeightFile(source, shard, opts);
      if (!f) throw new CheckpointError(`${source.describe(shard)} not found`);
      files.set(shard, f);
      parsed.push(await readWeightFile(f));
    }
    weights = collectWeights(parsed, { index, file: indexFile });
  } else {
    const f = await openWeightFile(source, WEIGHTS_NAME, opts);
    if (!f)
      throw new CheckpointError(
        `neither ${source.describe(WEIGHTS_NAME)} nor ${source.describe(WEIGHTS_INDEX_NAME)} exists`,
      );
    files.set(WEIGHTS_NAME, f);
    weights = collectWeights([await readWeightFile(f)]);
  }
  checkParameters(config, weightShapes(weights), source.describe(indexBytes ? WEIGHTS_INDEX_NAME : WEIGHTS_NAME));
  return { config, weights, files };
}
