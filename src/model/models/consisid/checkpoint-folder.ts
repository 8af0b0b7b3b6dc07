// Node-only: a generated checkpoint written to a folder tensor by tensor (never whole in memory),
// for benchmarks, big-checkpoint tests and `consisid generate`.
import type { ConsisIDConfig } from '../../graph/config.ts';
import { configFileBytes } from './checkpoint-writer.ts';
import { expectedParameters } from '../../graph/parameters.ts';
import { randomTensors, type WeightDtype, type WeightFamily } from './random-weights.ts';
import { writeModelFolder } from '../../io/safetensors/write-folder.ts';

export interface GenerateOptions {
  seed?: number;
  dtype?: WeightDtype;
  shards?: number;
  family?: WeightFamily;
}

/** writes config.json and random weights for `config` (as given: raw keys) into `dir`; returns the weight bytes */
export async function writeCheckpointFolder(
  dir: string,
  raw: Record<string, unknown>,
  config: ConsisIDConfig,
  opts: GenerateOptions = {},
): Promise<number> {
  const dtype = opts.dtype ?? 'float32';
  return writeModelFolder(
    dir,
    configFileBytes(raw),
    [...expectedParameters(config)].map(([name, shape]) => ({ name, dtype, shape })),
    randomTensors(config, opts.seed ?? 42, dtype, opts.family),
    opts.shards,
  );
}
