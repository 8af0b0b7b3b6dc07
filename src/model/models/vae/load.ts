// Reads a VAE folder (vae/config.json and its weights: one file or shards with an index) from any
// file source: the config and the safetensors headers only; the tensors stay in the files.
import type { FileSource, ReadOptions } from '../../io/file-source.ts';
import {
  fileFromBytes,
  readSafetensorsHeaderFrom,
  type CheckpointFile,
  type CheckpointFiles,
} from '../../io/checkpoint-file.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME, parseShardIndex, shardFiles } from '../../io/safetensors/index-file.ts';
import { collectWeights, weightShapes, type WeightFile, type WeightSet } from '../../io/safetensors/weight-set.ts';
import { parseVaeConfig, VaeConfigError, type VaeConfig } from './config.ts';
import { checkDecoderParameters } from './decoder-layout.ts';

export interface VaeCheckpoint {
  config: VaeConfig;
  weights: WeightSet;
  files: CheckpointFiles;
}

export class VaeLoadError extends Error {
  override name = 'VaeLoadError';
}

async function openFile(source: FileSource, name: string, opts: ReadOptions): Promise<CheckpointFile | null> {
  const describe = source.describe(name);
  if (source.open) {
    const f = await source.open(name, opts);
    return f && { ...f, name, describe };
  }
  const bytes = await source.read(name, opts);
  return bytes && fileFromBytes(name, describe, bytes);
}

async function weightFile(f: CheckpointFile): Promise<WeightFile> {
  const header = await readSafetensorsHeaderFrom(f, f.describe);
  return f.bytes ? { name: f.name, header, bytes: f.bytes } : { name: f.name, header };
}

export async function readVaeConfig(source: FileSource, opts: ReadOptions = {}): Promise<VaeConfig> {
  const file = source.describe('config.json');
  const bytes = await source.read('config.json', opts);
  if (!bytes) throw new VaeLoadError(`${file} not found: is this a VAE folder (a checkpoint's vae/)?`);
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new VaeConfigError(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  return parseVaeConfig(raw, file);
}

export async function loadVae(source: FileSource, opts: ReadOptions = {}): Promise<VaeCheckpoint> {
  const config = await readVaeConfig(source, opts);
  const indexBytes = await source.read(WEIGHTS_INDEX_NAME, opts);
  const files = new Map<string, CheckpointFile>();
  let weights: WeightSet;
  if (indexBytes) {
    const indexFile = source.describe(WEIGHTS_INDEX_NAME);
    const index = parseShardIndex(new TextDecoder().decode(indexBytes), indexFile);
    const parsed: WeightFile[] = [];
    for (const shard of shardFiles(index)) {
      const f = await openFile(source, shard, opts);
      if (!f) throw new VaeLoadError(`${source.describe(shard)} not found (named in ${indexFile})`);
      files.set(shard, f);
      parsed.push(await weightFile(f));
    }
    weights = collectWeights(parsed, { index, file: indexFile });
  } else {
    const f = await openFile(source, WEIGHTS_NAME, opts);
    if (!f)
      throw new VaeLoadError(
        `neither ${source.describe(WEIGHTS_NAME)} nor ${source.describe(WEIGHTS_INDEX_NAME)} exists`,
      );
    files.set(WEIGHTS_NAME, f);
    weights = collectWeights([await weightFile(f)]);
  }
  checkDecoderParameters(
    config,
    weightShapes(weights),
    source.describe(indexBytes ? WEIGHTS_INDEX_NAME : WEIGHTS_NAME),
  );
  return { config, weights, files };
}
