// Reads config.json and the weights (single file or shards + index) of a diffusers transformer.
import { parseConfig, type ConsisIDConfig } from '../config.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME, parseShardIndex, shardFiles } from '../safetensors/index-file.ts';
import { parseSafetensors } from '../safetensors/read.ts';
import { collectWeights, weightShapes, type WeightSet } from '../safetensors/weight-set.ts';
import { checkParameters } from '../graph/parameters.ts';
import type { DownloadProgress, FileSource } from './file-source.ts';

export interface Checkpoint {
  config: ConsisIDConfig;
  weights: WeightSet;
}

export interface LoadOptions {
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

async function required(source: FileSource, file: string, opts: LoadOptions): Promise<Uint8Array> {
  const bytes = await source.read(file, opts);
  if (!bytes) throw new CheckpointError(`${source.describe(file)} not found`);
  return bytes;
}

export async function loadCheckpoint(source: FileSource, opts: LoadOptions = {}): Promise<Checkpoint> {
  const configText = new TextDecoder().decode(await required(source, 'config.json', opts));
  let raw: unknown;
  try {
    raw = JSON.parse(configText);
  } catch (e) {
    throw new CheckpointError(`${source.describe("config.json")}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const config = parseConfig(raw, source.describe('config.json'));
  const indexBytes = await source.read(WEIGHTS_INDEX_NAME, opts);
  let weights: WeightSet;
  if (indexBytes) {
    const indexFile = source.describe(WEIGHTS_INDEX_NAME);
    const index = parseShardIndex(new TextDecoder().decode(indexBytes), indexFile);
    const files = [];
    for (const shard of shardFiles(index)) files.push(parseSafetensors(await required(source, shard, opts), source.describe(shard)));
    weights = collectWeights(files, { index, file: indexFile });
  } else {
    const bytes = await source.read(WEIGHTS_NAME, opts);
    if (!bytes) throw new CheckpointError(`neither ${source.describe(WEIGHTS_NAME)} nor ${source.describe(WEIGHTS_INDEX_NAME)} exists`);
    weights = collectWeights([parseSafetensors(bytes, source.describe(WEIGHTS_NAME))]);
  }
  checkParameters(config, weightShapes(weights), source.describe(indexBytes ? WEIGHTS_INDEX_NAME : WEIGHTS_NAME));
  return { config, weights };
}
