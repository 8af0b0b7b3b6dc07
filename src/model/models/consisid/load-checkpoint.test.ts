import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from './load-checkpoint.ts';
import { memorySource } from '../../io/memory-source.ts';
import { localSource } from '../../io/local-source.ts';
import { consisidPreviewSFiles, consisidTinyFiles, CONSISID_TINY_CONFIG } from './demo-checkpoints.ts';
import { writeCheckpointFiles } from './checkpoint-writer.ts';
import { randomWeights } from './random-weights.ts';
import { parseConfig } from '../../graph/config.ts';
import { fixtureDir } from '../../test-support/fixtures.ts';

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe('loadCheckpoint', () => {
  it('reads a sharded F16 fixture folder', async () => {
    const { config, weights } = await loadCheckpoint(localSource(fixtureDir('tiny-face')));
    expect(config.is_train_face).toBe(true);
    expect(weights.get('patch_embed.proj.weight')?.dtype).toBe('F16');
    expect(new Set([...weights.values()].map((w) => w.file.split('/').pop())).size).toBe(2);
  });

  it('lists every missing and unexpected parameter in one error', async () => {
    const config = parseConfig(CONSISID_TINY_CONFIG);
    const w = randomWeights(config, 3);
    w.delete('proj_out.bias');
    w.delete('transformer_blocks.1.attn1.to_q.weight');
    w.set('transformer_blocks.9.attn1.to_q.weight', { dtype: 'float32', shape: [1], data: new Float32Array(1) });
    w.set('norm_final.weight', { dtype: 'float32', shape: [3], data: new Float32Array(3) });
    const files = writeCheckpointFiles({ ...CONSISID_TINY_CONFIG }, w);
    const err = await loadCheckpoint(memorySource(files)).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const msg = (err as Error).message;
    expect(msg).toMatch(/missing 2 parameter\(s\): transformer_blocks\.1\.attn1\.to_q\.weight, proj_out\.bias/);
    expect(msg).toMatch(/unexpected 1 parameter\(s\): transformer_blocks\.9\.attn1\.to_q\.weight/);
    expect(msg).toMatch(/norm_final\.weight: expected \[32\], found \[3\]/);
  });

  it('fails clearly on a missing config or weights, and on config errors', async () => {
    await expect(loadCheckpoint(memorySource([]))).rejects.toThrow(/memory:config\.json not found/);
    await expect(loadCheckpoint(memorySource([{ path: 'config.json', bytes: enc({}) }]))).rejects.toThrow(
      /neither .*diffusion_pytorch_model\.safetensors nor .*index\.json exists/,
    );
    await expect(
      loadCheckpoint(memorySource([{ path: 'config.json', bytes: enc({ is_train_face: true }) }])),
    ).rejects.toThrow(/LFE_output_dim/);
    await expect(
      loadCheckpoint(memorySource([{ path: 'config.json', bytes: new TextEncoder().encode('{oops') }])),
    ).rejects.toThrow(/config\.json: not valid JSON/);
  });

  it('checks the shard index against the shards', async () => {
    const files = consisidPreviewSFiles();
    await expect(loadCheckpoint(memorySource(files, 'transformer'))).resolves.toBeTruthy();
    const broken = files.map((f) => {
      if (!f.path.endsWith('.index.json')) return f;
      const idx = JSON.parse(new TextDecoder().decode(f.bytes));
      idx.weight_map['ghost.weight'] = 'diffusion_pytorch_model-00001-of-00002.safetensors';
      return { ...f, bytes: enc(idx) };
    });
    await expect(loadCheckpoint(memorySource(broken, 'transformer'))).rejects.toThrow(
      /"ghost\.weight" is mapped to diffusion_pytorch_model-00001-of-00002\.safetensors but no shard holds it/,
    );
    const traversal = files.map((f) =>
      f.path.endsWith('.index.json') ? { ...f, bytes: enc({ weight_map: { a: '../../etc/passwd' } }) } : f,
    );
    await expect(loadCheckpoint(memorySource(traversal, 'transformer'))).rejects.toThrow(/plain file names/);
    const missingShard = files.filter((f) => !f.path.endsWith('00002-of-00002.safetensors'));
    await expect(loadCheckpoint(memorySource(missingShard, 'transformer'))).rejects.toThrow(
      /00002-of-00002\.safetensors not found/,
    );
  });

  it('demo checkpoints are deterministic', () => {
    const a = consisidTinyFiles();
    const b = consisidTinyFiles();
    expect(a.map((f) => f.path)).toEqual(b.map((f) => f.path));
    a.forEach((f, i) => expect(Buffer.from(f.bytes).equals(Buffer.from(b[i]!.bytes))).toBe(true));
  });
});
