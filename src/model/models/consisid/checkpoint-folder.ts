// Node-only: a generated checkpoint written to a folder tensor by tensor (never whole in memory),
// for benchmarks, big-checkpoint tests and `consisid generate`.
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConsisIDConfig } from '../../graph/config.ts';
import { configFileBytes, planShards } from './checkpoint-writer.ts';
import { expectedParameters } from '../../graph/parameters.ts';
import { randomTensors, type WeightDtype, type WeightFamily } from './random-weights.ts';
import { WEIGHTS_INDEX_NAME } from '../../io/safetensors/index-file.ts';
import { safetensorsHeader } from '../../io/safetensors/write.ts';

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
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'config.json'), configFileBytes(raw));
  const plan = planShards(
    [...expectedParameters(config)].map(([name, shape]) => ({ name, dtype, shape })),
    opts.shards,
  );
  const tensors = randomTensors(config, opts.seed ?? 42, dtype, opts.family);
  let total = 0;
  for (const f of plan.files) {
    const fh = await open(path.join(dir, f.name), 'w');
    try {
      const head = safetensorsHeader(f.tensors, { format: 'pt' });
      await fh.write(head);
      for (const layout of f.tensors) {
        const next = tensors.next();
        if (next.done || next.value[0] !== layout.name)
          throw new Error(`generated tensors out of order at ${layout.name}`);
        const d = next.value[1].data;
        await fh.write(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        total += d.byteLength;
      }
    } finally {
      await fh.close();
    }
  }
  if (plan.index) await writeFile(path.join(dir, WEIGHTS_INDEX_NAME), plan.index);
  return total;
}
