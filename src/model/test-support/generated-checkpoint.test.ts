import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../graph/config.ts';
import { CONSISID_PREVIEW_S_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { parseSafetensors } from '../io/safetensors/read.ts';
import { generatedCheckpoint } from './generated-checkpoint.ts';

describe('generated checkpoints', () => {
  it('hold the random weights in shards, and are written again only for another recipe', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ckpt-')), 'c');
    const sub = path.join(dir, 'transformer');
    const { weightBytes } = await generatedCheckpoint(dir, CONSISID_PREVIEW_S_CONFIG, {
      seed: 3,
      dtype: 'float16',
      shards: 2,
    });
    const shards = readdirSync(sub).filter((f) => f.endsWith('.safetensors'));
    expect(shards).toHaveLength(2);
    const expected = randomWeights(parseConfig(CONSISID_PREVIEW_S_CONFIG), 3, 'float16');
    let bytes = 0;
    for (const s of shards) {
      for (const [name, t] of parseSafetensors(new Uint8Array(readFileSync(path.join(sub, s))), s).tensors) {
        const e = expected.get(name)!.data;
        expect(Buffer.from(t.bytes).equals(Buffer.from(e.buffer, e.byteOffset, e.byteLength)), name).toBe(true);
        bytes += t.bytes.length;
      }
    }
    expect(bytes).toBe(weightBytes);
    const mtime = statSync(path.join(sub, shards[0]!)).mtimeMs;
    await generatedCheckpoint(dir, CONSISID_PREVIEW_S_CONFIG, { seed: 3, dtype: 'float16', shards: 2 });
    expect(statSync(path.join(sub, shards[0]!)).mtimeMs).toBe(mtime);
    await generatedCheckpoint(dir, CONSISID_PREVIEW_S_CONFIG, { seed: 3 });
    expect(readdirSync(sub).sort()).toEqual(['config.json', 'diffusion_pytorch_model.safetensors']);
  });
});
