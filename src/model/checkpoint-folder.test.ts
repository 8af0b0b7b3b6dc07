import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomCheckpointFolder } from './checkpoint-folder.ts';
import { parseConfig } from './config.ts';
import { CONSISID_PREVIEW_S_CONFIG } from './demo-checkpoints.ts';
import { loadCheckpoint } from './loader/load-checkpoint.ts';
import { localSource } from './loader/local-source.ts';
import { randomWeights } from './random-weights.ts';

describe('checkpoint folders written tensor by tensor', () => {
  it('hold the random weights, in shards with an index, and are reused while the recipe is the same', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ckpt-')), 'c');
    const { weightBytes } = await randomCheckpointFolder(dir, CONSISID_PREVIEW_S_CONFIG, { seed: 3, dtype: 'float16', shards: 3 });
    const sub = path.join(dir, 'transformer');
    expect(readdirSync(sub).sort()).toEqual(['config.json', 'diffusion_pytorch_model-00001-of-00003.safetensors', 'diffusion_pytorch_model-00002-of-00003.safetensors', 'diffusion_pytorch_model-00003-of-00003.safetensors', 'diffusion_pytorch_model.safetensors.index.json']);
    const { weights } = await loadCheckpoint(localSource(sub));
    const expected = randomWeights(parseConfig(CONSISID_PREVIEW_S_CONFIG), 3, 'float16');
    expect([...weights.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, t] of expected) expect(Buffer.from(weights.get(name)!.bytes).equals(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength)), name).toBe(true);
    expect([...weights.values()].reduce((s, w) => s + w.bytes.byteLength, 0)).toBe(weightBytes);

    const mtime = statSync(path.join(sub, 'config.json')).mtimeMs;
    await randomCheckpointFolder(dir, CONSISID_PREVIEW_S_CONFIG, { seed: 3, dtype: 'float16', shards: 3 });
    expect(statSync(path.join(sub, 'config.json')).mtimeMs).toBe(mtime);
    await randomCheckpointFolder(dir, CONSISID_PREVIEW_S_CONFIG, { seed: 3, dtype: 'float32' });
    expect(readdirSync(sub).sort()).toEqual(['config.json', 'diffusion_pytorch_model.safetensors']);
  });
});
