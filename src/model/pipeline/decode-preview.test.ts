import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nodeEnvironment } from '../node.ts';
import { toByte, type Tensor5 } from '../models/vae/video-tensor.ts';
import { loadVaeCase, vaeCaseDir } from '../models/vae/test-fixtures.ts';
import { WASM_PAGE_PER_BYTE } from '../models/vae/wasm-page.ts';
import { RELEASED_VAE_CONFIG } from '../models/vae/random-vae.ts';
import { DEMO_VAE_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { clipOf, decodePreview, planPreviewDecode, previewVaePrecision } from './decode-preview.ts';
import { WEIGHT_PRECISIONS } from '../plan/precision.ts';
import { convertedSource } from '../convert/converted-source.ts';

const folder = async (name: string) => (await nodeEnvironment.localSource(vaeCaseDir(name)))!;

describe('clipOf', () => {
  it('maps sample[0, c, t, y, x] to byte 4 (y w + x) + c of frame t as the video processor does; alpha is opaque', () => {
    const dims = fc.tuple(
      fc.integer({ min: 1, max: 2 }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 4 }),
    );
    fc.assert(
      fc.property(dims, fc.integer(), ([b, t, s], seed) => {
        const n = b * 3 * t * s * (s + 1);
        const data = Float32Array.from({ length: n }, (_, i) => Math.sin(seed + i) * 1.5);
        const sample: Tensor5 = { data, dims: [b, 3, t, s, s + 1] };
        const clip = clipOf(sample);
        expect([clip.width, clip.height, clip.frames.length]).toEqual([s + 1, s, t]);
        for (let f = 0; f < t; f++)
          for (let c = 0; c < 4; c++)
            for (let p = 0; p < s * (s + 1); p++)
              expect(clip.frames[f]![p * 4 + c]).toBe(c === 3 ? 255 : toByte(data[(c * t + f) * s * (s + 1) + p]!));
      }),
    );
  });

  it('refuses a sample that is not RGB', () => {
    expect(() => clipOf({ data: new Float32Array(4), dims: [1, 4, 1, 1, 1] })).toThrow(/4 channels/);
  });
});

describe('previewVaePrecision', () => {
  // the demo VAE at the demo latents: its float32 decode fits the page's budget, and misses a 1-byte one
  const dims = [1, 2, 4, 12, 16];
  it("float16 on WebGPU with shader-f16, and on WASM where float32's smallest tiles miss the budget, once the transformer is not float32", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('cpu', 'wasm', 'webgpu' as const),
        fc.constantFrom(...WEIGHT_PRECISIONS),
        fc.boolean(),
        fc.boolean(),
        async (device, weights, shaderF16, misses) => {
          let asked = 0;
          const hasShaderF16 = async () => (asked++, shaderF16);
          const budgetBytes = misses ? 1 : null;
          const got = await previewVaePrecision(DEMO_VAE_CONFIG, dims, device, weights, { hasShaderF16, budgetBytes });
          const f16 = weights !== 'float32' && (device === 'webgpu' ? shaderF16 : misses);
          expect(got).toBe(f16 ? 'float16' : 'float32');
          // the adapter is asked only where its answer decides
          expect(asked).toBe(device === 'webgpu' && weights !== 'float32' ? 1 : 0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("the released decoder on a 4-thread WASM page: float32's smallest tiles miss the budget, float16's fit", async () => {
    const preview = [1, 13, 16, 30, 44];
    expect(planPreviewDecode(RELEASED_VAE_CONFIG, preview, 'wasm', { threads: 4 }).misses).not.toEqual([]);
    expect(await previewVaePrecision(RELEASED_VAE_CONFIG, preview, 'wasm', 'int8', { threads: 4 })).toBe('float16');
    const float16 = planPreviewDecode(RELEASED_VAE_CONFIG, preview, 'wasm', { threads: 4, weights: 'float16' });
    expect(float16.misses).toEqual([]);
    // at 1 thread float32 fits: float32
    expect(await previewVaePrecision(RELEASED_VAE_CONFIG, preview, 'wasm', 'int8', { threads: 1 })).toBe('float32');
  });
});

describe('decodePreview', () => {
  it('weights float16 through a convertedSource: the frames within a byte of the reference, planned in float16', async () => {
    const c = loadVaeCase('vae-tiny');
    const clip = await decodePreview(c.latents, {
      // a float32 decoder would refuse this source
      source: convertedSource(await folder('vae-tiny'), null, 'float16'),
      environment: nodeEnvironment,
      device: 'wasm',
      weights: 'float16',
      threads: 1,
    });
    const expected = clipOf(c.expected);
    const off = clip.frames.map((f, t) => f.reduce((m, v, i) => Math.max(m, Math.abs(v - expected.frames[t]![i]!)), 0));
    expect(Math.max(...off)).toBeLessThanOrEqual(1);
    const plan = planPreviewDecode({}, [1, 13, 16, 30, 44], 'webgpu', { weights: 'float16' });
    expect(plan.precision).toBe('float16');
  });

  it("decodes a VAE folder's latents into the golden case's frames, reporting each batch", async () => {
    const c = loadVaeCase('vae-tiny');
    const batches: { done: number; total: number }[] = [];
    const clip = await decodePreview(c.latents, {
      source: await folder('vae-tiny'),
      environment: nodeEnvironment,
      device: 'cpu',
      threads: 1,
      onBatch: (p) => batches.push(p),
    });
    const expected = clipOf(c.expected);
    expect([clip.width, clip.height, clip.frames.length]).toEqual([16, 12, 5]);
    for (const [t, frame] of clip.frames.entries()) {
      const off = frame.reduce((m, v, i) => Math.max(m, Math.abs(v - expected.frames[t]![i]!)), 0);
      expect(off, `frame ${t}`).toBeLessThanOrEqual(1);
    }
    expect(batches).toEqual([{ done: 1, total: 1 }]);
  });

  it('stops at an aborted signal', async () => {
    const c = loadVaeCase('vae-tiny');
    const ac = new AbortController();
    ac.abort(new DOMException('cancelled', 'AbortError'));
    const run = decodePreview(c.latents, {
      source: await folder('vae-tiny'),
      environment: nodeEnvironment,
      device: 'cpu',
      signal: ac.signal,
    });
    await expect(run).rejects.toThrow(/cancelled/);
  });

  it('plans untiled where one batch fits; a config it cannot read names the key', () => {
    const raw = { _class_name: 'AutoencoderKLCogVideoX', block_out_channels: [8, 16], latent_channels: 4 };
    const plan = planPreviewDecode({ ...raw, norm_num_groups: 4, layers_per_block: 1 }, [1, 3, 4, 6, 8], 'wasm');
    expect(plan.tiled).toBe(false);
    expect(plan.weightBytes).toBeGreaterThan(0);
    expect(() => planPreviewDecode({ ...raw, norm_num_groups: 3 }, [1, 3, 4, 6, 8], 'wasm')).toThrow(
      /block_out_channels/,
    );
  });

  it("counts the page's WASM threads in a WASM decode's need, not in a WebGPU one's", () => {
    const raw = { block_out_channels: [8, 16], latent_channels: 4, norm_num_groups: 4, layers_per_block: 1 };
    const dims = [1, 3, 4, 6, 8];
    const need = (device: 'wasm' | 'webgpu', threads?: number) =>
      planPreviewDecode(raw, dims, device, threads ? { threads } : {}).needBytes;
    expect(need('wasm', 4) - need('wasm')).toBe(WASM_PAGE_PER_BYTE.threadedBytes);
    expect(need('webgpu', 4)).toBe(need('webgpu'));
    // within a budget at 1 thread, past it at 16, and the plan says so, naming them
    expect(planPreviewDecode(raw, dims, 'wasm', { threads: 1, budgetBytes: 1e8 }).misses).toEqual([]);
    const plan = planPreviewDecode(raw, dims, 'wasm', { threads: 16, budgetBytes: 1e8 });
    expect(plan.misses.join()).toMatch(/wasm at 16 threads: .* exceed the budget's/);
  });
});
