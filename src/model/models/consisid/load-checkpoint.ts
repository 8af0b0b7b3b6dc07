// Reads config.json and the safetensors headers (single file or shards + index) of a diffusers
// transformer. Tensor bytes stay where they are: sources that can be read in parts (local files)
// are not read past their headers; sessions take the tensors from the files.
import { parseConfig, type ConsisIDConfig } from '../../graph/config.ts';
import { weightShapes, type WeightSet } from '../../io/safetensors/weight-set.ts';
import { checkParameters } from '../../graph/parameters.ts';
import type { FileSource, ReadOptions } from '../../io/file-source.ts';
import { openFolderWeights, type CheckpointFiles } from '../../io/checkpoint-file.ts';

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
  const { weights, files, describe } = await openFolderWeights(source, opts, (m) => new CheckpointError(m));
  checkParameters(config, weightShapes(weights), describe);
  return { config, weights, files };
}
