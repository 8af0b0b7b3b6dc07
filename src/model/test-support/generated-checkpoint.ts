// Node only: a checkpoint of random weights written once into a folder and reused while its
// recipe (config, seed, dtype, shards) is the same: benchmarks and e2e specs generate big
// checkpoints at run time instead of committing them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeCheckpointFolder, type GenerateOptions } from '../models/consisid/checkpoint-folder.ts';
import { parseConfig, type ConsisIDConfigInput } from '../graph/config.ts';

/** `dir/transformer` holds the checkpoint; returns its weight bytes */
export async function generatedCheckpoint(
  dir: string,
  input: ConsisIDConfigInput,
  opts: GenerateOptions = {},
): Promise<{ dir: string; weightBytes: number }> {
  const stamp = createHash('sha1')
    .update(JSON.stringify({ input, ...opts }))
    .digest('hex');
  const marker = path.join(dir, '.generated');
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as { stamp: string; weightBytes: number };
    if (m.stamp === stamp) return { dir, weightBytes: m.weightBytes };
  }
  rmSync(dir, { recursive: true, force: true });
  const weightBytes = await writeCheckpointFolder(
    path.join(dir, 'transformer'),
    { ...input },
    parseConfig(input),
    opts,
  );
  writeFileSync(marker, JSON.stringify({ stamp, weightBytes }));
  return { dir, weightBytes };
}
