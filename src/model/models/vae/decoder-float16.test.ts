import { afterAll, describe, expect, it } from 'vitest';
import { localSource } from '../../io/local-source.ts';
import { memorySource } from '../../io/memory-source.ts';
import { nodeBackend } from '../../runtime/node.ts';
import { webBackend } from '../../runtime/web.ts';
import { nodeEnvironment } from '../../node.ts';
import { relativeError } from '../../io/tensor.ts';
import { convertedSource } from '../../convert/converted-source.ts';
import { memoryCache } from '../../test-support/memory-cache.ts';
import { VaeDecoder } from './decoder.ts';
import { vaeFromPretrained } from './from-pretrained.ts';
import { loadVae } from './load.ts';
import { VAE_FLOAT16_ERROR } from './precision.ts';
import { randomVaeFiles, SMALL_VAE_CONFIG } from './random-vae.ts';
import { loadVaeCase, randomLatents, VAE_CASES, VAE_EXTRA_CASES, vaeCaseDir } from './test-fixtures.ts';

const opened: VaeDecoder[] = [];
afterAll(async () => {
  for (const d of opened) await d.release();
});

async function decoderFor(dir: string, device: 'cpu' | 'wasm', weights: 'float32' | 'float16'): Promise<VaeDecoder> {
  const d = new VaeDecoder(await loadVae(localSource(dir)), { backend: nodeBackend(), device, threads: 1, weights });
  opened.push(d);
  return d;
}

describe('weights float16: every golden case (float64 reference) within VAE_FLOAT16_ERROR', () => {
  for (const name of [...VAE_CASES, ...VAE_EXTRA_CASES])
    for (const device of ['cpu', 'wasm'] as const)
      it(`${name} on ${device}`, async () => {
        const c = loadVaeCase(name);
        const d = await decoderFor(vaeCaseDir(name), device, 'float16');
        const out = await d.decode(c.latents, { tile: c.tiled ? 'auto' : false });
        expect(out.dims).toEqual(c.expected.dims);
        const error = relativeError(out.data, c.expected.data);
        expect(error).toBeLessThanOrEqual(VAE_FLOAT16_ERROR);
        // it computes in float16: float32's error is 1e-6 (decoder.test.ts)
        expect(error).toBeGreaterThan(1e-5);
      });
});

describe('weights option', () => {
  it('refuses other precisions before reading anything, naming weights and the allowed values', async () => {
    const none = { describe: (f: string) => f, read: () => Promise.reject(new Error('read')) };
    for (const [weights, why] of [
      ['int8', /weights must be one of float32, float16 for the VAE: int8 and int4 are the transformer's/],
      ['bfloat16', /weights must be one of float32, float16 for the VAE; got "bfloat16"/],
    ] as const)
      await expect(
        vaeFromPretrained('x', { environment: nodeEnvironment, source: none, weights: weights as 'float16' }),
      ).rejects.toThrow(why);
  });

  it("WebGPU without shader-f16: the transformer's refusal, naming weights float16 (Node has no adapter)", async () => {
    const d = new VaeDecoder(await loadVae(localSource(vaeCaseDir('vae-tiny'))), {
      backend: webBackend(),
      device: 'webgpu',
      weights: 'float16',
    });
    opened.push(d);
    await expect(d.decode(loadVaeCase('vae-tiny').latents)).rejects.toThrow(
      /weights float16 need the WebGPU adapter's shader-f16, which this one lacks: use device "wasm"/,
    );
  });

  it('a convertedSource: the plan comes off the float16 graph, the decoder reads float16 files, the same output', async () => {
    const files = randomVaeFiles({ ...SMALL_VAE_CONFIG, latent_channels: 4 }, { seed: 2 });
    const z = randomLatents([1, 3, 4, 2, 3], 4);
    const cast = new VaeDecoder(await loadVae(memorySource(files)), {
      backend: nodeBackend(),
      device: 'cpu',
      threads: 1,
      weights: 'float16',
    });
    opened.push(cast);
    const cache = memoryCache();
    const source = convertedSource(memorySource(files), cache, 'float16');
    const converted = await vaeFromPretrained('vae', { environment: nodeEnvironment, source, weights: 'float16' });
    opened.push(converted);
    expect(relativeError((await converted.decode(z)).data, (await cast.decode(z)).data)).toBeLessThan(1e-6);
    // the cache holds the decoder's tensors in float16: half the float32 file, less its header
    const stored = [...cache.entries.values()];
    expect(stored).toHaveLength(1);
    const f32 = files.find((f) => f.path.endsWith('.safetensors'))!.bytes.length;
    expect(stored[0]!.meta.size).toBeLessThan(0.55 * f32);
    expect(stored[0]!.meta.size).toBeGreaterThan(0.45 * f32);
    await expect(
      vaeFromPretrained('vae', { environment: nodeEnvironment, source, weights: 'float32' }),
    ).rejects.toThrow(/the source converts the weights to float16, the model asks for float32/);
  });
});
