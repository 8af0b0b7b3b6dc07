import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { localSource } from '../../io/local-source.ts';
import { memorySource } from '../../io/memory-source.ts';
import { nodeBackend } from '../../runtime/node.ts';
import { relativeError } from '../../io/tensor.ts';
import { frameBatches, framesOfBatch, parseVaeConfig } from './config.ts';
import { VaeDecoder } from './decoder.ts';
import { loadVae } from './load.ts';
import { randomVaeFiles, SMALL_VAE_CONFIG } from './random-vae.ts';
import { loadVaeCase, VAE_CASES, VAE_EXTRA_CASES, randomLatents, vaeCaseDir } from './test-fixtures.ts';
import { cropLatents, type Tensor5 } from './video-tensor.ts';
import { entryToFloat32, parseSafetensors } from '../../io/safetensors/read.ts';
import { writeSafetensors } from '../../io/safetensors/write.ts';
import { WEIGHTS_NAME } from '../../io/safetensors/index-file.ts';
import type { HostTensor } from '../../io/tensor.ts';

const opened: VaeDecoder[] = [];
afterAll(async () => {
  for (const d of opened) await d.release();
});

async function decoderFor(dir: string, device: 'cpu' | 'wasm' = 'cpu'): Promise<VaeDecoder> {
  const d = new VaeDecoder(await loadVae(localSource(dir)), { backend: nodeBackend(), device, threads: 1 });
  opened.push(d);
  return d;
}

describe('the decoder reproduces diffusers AutoencoderKLCogVideoX.decode (float64 reference)', () => {
  for (const name of [...VAE_CASES, ...VAE_EXTRA_CASES])
    for (const device of ['cpu', 'wasm'] as const)
      it(`${name} on ${device}: within the case's tolerance`, async () => {
        const c = loadVaeCase(name);
        const d = await decoderFor(vaeCaseDir(name), device);
        const out = await d.decode(c.latents, { tile: c.tiled ? 'auto' : false });
        expect(out.dims).toEqual(c.expected.dims);
        expect(relativeError(out.data, c.expected.data)).toBeLessThanOrEqual(c.tolerance);
      });

  it('the first batch sees no later frame; later batches see the caches of earlier ones', async () => {
    const c = loadVaeCase('vae-real-shape');
    const d = await decoderFor(vaeCaseDir('vae-real-shape'));
    const first = await d.decode(cropLatents(c.latents, [0, 3], [0, 6], [0, 10]));
    const expectedFirst = cropFrames(c.expected, 0, 9);
    expect(relativeError(first.data, expectedFirst.data)).toBeLessThanOrEqual(c.tolerance);
    // frames [3, 5) decoded without the caches of [0, 3) are not the reference's frames 9..17
    const alone = await d.decode(cropLatents(c.latents, [3, 5], [0, 6], [0, 10]));
    expect(relativeError(alone.data, cropFrames(c.expected, 9, 17).data)).toBeGreaterThan(100 * c.tolerance);
  });
});

describe('built for the config, not the cases', () => {
  it('batch 2: each video decodes as it does alone', async () => {
    const files = randomVaeFiles(
      { ...SMALL_VAE_CONFIG, latent_channels: 4, sample_height: 64, sample_width: 64 },
      { seed: 3 },
    );
    const d = new VaeDecoder(await loadVae(memorySource(files)), { backend: nodeBackend(), device: 'cpu', threads: 1 });
    opened.push(d);
    const both = randomLatents([2, 4, 4, 3, 5], 7);
    const out = await d.decode(both);
    expect(out.dims).toEqual([2, 3, 1 + 2 * 3 + 1, 6, 10]);
    for (const b of [0, 1]) {
      const one = await d.decode(cropBatch(both, b));
      const half = out.data.length / 2;
      expect(relativeError(out.data.subarray(b * half, (b + 1) * half), one.data)).toBeLessThan(1e-6);
    }
  });

  it('bfloat16 and float16 weights decode as float32 weights of the same values', async () => {
    const cfg = { ...SMALL_VAE_CONFIG, latent_channels: 4 };
    const z = randomLatents([1, 3, 4, 2, 3], 11);
    const decode = async (files: { path: string; bytes: Uint8Array }[]) => {
      const d = new VaeDecoder(await loadVae(memorySource(files)), {
        backend: nodeBackend(),
        device: 'cpu',
        threads: 1,
      });
      opened.push(d);
      return (await d.decode(z)).data;
    };
    for (const dtype of ['bfloat16', 'float16'] as const) {
      const half = randomVaeFiles(cfg, { seed: 5, dtype, shards: 2 });
      expect(relativeError(await decode(half), await decode(widened(half)))).toBeLessThan(1e-6);
    }
  });
});

/** the weight files as one float32 file of the same values */
function widened(files: { path: string; bytes: Uint8Array }[]): { path: string; bytes: Uint8Array }[] {
  const tensors: Record<string, HostTensor> = {};
  for (const f of files.filter((x) => x.path.endsWith('.safetensors')))
    for (const [name, e] of parseSafetensors(f.bytes, f.path).tensors)
      tensors[name] = { dtype: 'float32', shape: e.shape, data: entryToFloat32(e, f.path) };
  return [files.find((f) => f.path === 'config.json')!, { path: WEIGHTS_NAME, bytes: writeSafetensors(tensors) }];
}

function cropFrames(x: Tensor5, from: number, to: number): Tensor5 {
  const [b, c, t, h, w] = x.dims;
  const out = new Float32Array(b * c * (to - from) * h * w);
  const frame = h * w;
  for (let p = 0; p < b * c; p++)
    out.set(x.data.subarray((p * t + from) * frame, (p * t + to) * frame), p * (to - from) * frame);
  return { data: out, dims: [b, c, to - from, h, w] };
}

describe('sessions', () => {
  it("go once the decode runs their shape no more (the first batch's before the later batches run), unless kept; no CPU arena", async () => {
    const files = randomVaeFiles({ ...SMALL_VAE_CONFIG, latent_channels: 4 }, { seed: 9 });
    const checkpoint = await loadVae(memorySource(files));
    const z = randomLatents([1, 7, 4, 2, 3], 5);
    for (const keepSessions of [false, true]) {
      const log: string[] = [];
      const arenas: (boolean | undefined)[] = [];
      const node = nodeBackend();
      const backend = {
        ...node,
        async createSession(...args: Parameters<typeof node.createSession>) {
          arenas.push(args[1].memArena);
          const s = await node.createSession(...args);
          const n = log.filter((l) => l.startsWith('create')).length;
          log.push(`create ${n}`);
          return { ...s, release: async () => (log.push(`release ${n}`), s.release()) };
        },
      };
      const d = new VaeDecoder(checkpoint, { backend, device: 'cpu', threads: 1, keepSessions });
      await d.decode(z, { onBatch: (p) => log.push(`batch ${p.done}`) });
      expect(arenas).toEqual([false, false]);
      expect(log).toEqual(
        keepSessions
          ? ['create 0', 'batch 0', 'create 1', 'batch 1', 'batch 2']
          : ['create 0', 'release 0', 'batch 0', 'create 1', 'batch 1', 'release 1', 'batch 2'],
      );
      await d.release();
      if (keepSessions) expect(log.slice(-2).sort()).toEqual(['release 0', 'release 1']);
    }
  });
});

function cropBatch(x: Tensor5, b: number): Tensor5 {
  const n = x.data.length / x.dims[0];
  return { data: x.data.slice(b * n, (b + 1) * n), dims: [1, x.dims[1], x.dims[2], x.dims[3], x.dims[4]] };
}

describe('frame batches', () => {
  it("are diffusers' batches of 2 with the remainder in the first, covering every frame once", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), (f) => {
        const b = frameBatches(f);
        expect(b[0]![0]).toBe(0);
        expect(b[b.length - 1]![1]).toBe(f);
        b.slice(1).forEach(([s, e], i) => {
          expect(s).toBe(b[i]![1]);
          expect(e - s).toBe(2);
        });
        expect(b[0]![1] - b[0]![0]).toBe(f < 2 ? f : 2 + (f % 2));
      }),
    );
    expect(frameBatches(13).map(([s, e]) => e - s)).toEqual([3, 2, 2, 2, 2, 2]);
  });

  it('make 1 + 4 (F - 1) frames of an odd F, 4 F of an even F, with the released config', () => {
    const c = parseVaeConfig({});
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), (f) => {
        const total = frameBatches(f).reduce((s, [a, e]) => s + framesOfBatch(c, e - a), 0);
        expect(total).toBe(f % 2 === 1 ? 1 + 4 * (f - 1) : 4 * f);
      }),
    );
  });
});
