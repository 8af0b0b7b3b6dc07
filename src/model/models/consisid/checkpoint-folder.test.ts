import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCheckpointFolder } from './checkpoint-folder.ts';
import { writeCheckpointFiles } from './checkpoint-writer.ts';
import { parseConfig } from '../../graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG, CONSISID_TINY_CONFIG } from './demo-checkpoints.ts';
import { randomWeights, WEIGHT_FAMILIES } from './random-weights.ts';

const root = mkdtempSync(path.join(tmpdir(), 'ckpt-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('writeCheckpointFolder (tensor by tensor, shard by shard)', () => {
  it('writes the same files, byte for byte, as the in-memory writer over the whole weights', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(CONSISID_TINY_CONFIG, CONSISID_PREVIEW_S_CONFIG),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom('float32' as const, 'float16' as const, 'bfloat16' as const),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(...WEIGHT_FAMILIES),
        async (raw, seed, dtype, shards, family) => {
          const dir = path.join(root, String(run++));
          const config = parseConfig(raw);
          const bytes = await writeCheckpointFolder(dir, { ...raw }, config, { seed, dtype, shards, family });
          const weights = randomWeights(config, seed, dtype, family);
          const expected = writeCheckpointFiles({ ...raw }, weights, { shards });
          expect(readdirSync(dir).sort()).toEqual(expected.map((f) => f.path).sort());
          for (const f of expected)
            expect(Buffer.from(readFileSync(path.join(dir, f.path))).equals(Buffer.from(f.bytes)), f.path).toBe(true);
          expect(bytes).toBe([...weights.values()].reduce((s, t) => s + t.data.byteLength, 0));
          rmSync(dir, { recursive: true });
        },
      ),
      { numRuns: 12 },
    );
  });
});
