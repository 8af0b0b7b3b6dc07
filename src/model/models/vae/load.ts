// Reads a VAE folder (vae/config.json and its weights: one file or shards with an index) from any
// file source: the config and the safetensors headers only; the tensors stay in the files.
import type { FileSource, ReadOptions } from '../../io/file-source.ts';
import { openFolderWeights, type CheckpointFiles } from '../../io/checkpoint-file.ts';
import { weightShapes, type WeightSet } from '../../io/safetensors/weight-set.ts';
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
  const { weights, files, describe } = await openFolderWeights(source, opts, (m) => new VaeLoadError(m));
  checkDecoderParameters(config, weightShapes(weights), describe);
  return { config, weights, files };
}
