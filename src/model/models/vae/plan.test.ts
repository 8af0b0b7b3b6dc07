import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bindingLimit } from '../../plan/plan.ts';
import { parseVaeConfig } from './config.ts';
import { decoderParameters } from './decoder-layout.ts';
import { chooseVaeTiling, planVaeDecode, VAE_PAGE_BUDGET, type VaeBudget } from './plan.ts';
import { SMALL_VAE_CONFIG } from './random-vae.ts';
import { tileGeometry, tilesLineUp } from './tiling.ts';

const released = parseVaeConfig({ block_out_channels: [128, 256, 256, 512], scaling_factor: 0.7 });

describe('VAE decode plan', () => {
  it('holds the float32 decoder weights once, whatever their stored dtype', () => {
    const params = [...decoderParameters(released).values()].reduce((s, d) => s + d.reduce((a, b) => a * b, 1), 0);
    const plan = planVaeDecode(released, [1, 3, 16, 4, 6]);
    // plus a few KiB of shape and frame-index constants
    expect(plan.weightBytes).toBeGreaterThanOrEqual(4 * params);
    expect(plan.weightBytes - 4 * params).toBeLessThan(16 * 1024);
    expect(plan.batches.map((b) => [b.signature, b.runs])).toEqual([['first:1x3x4x6', 1]]);
  });

  it('counts one graph per batch shape, with how often it runs', () => {
    const plan = planVaeDecode(released, [1, 13, 16, 4, 6]);
    expect(plan.batches.map((b) => [b.signature, b.runs])).toEqual([
      ['first:1x3x4x6', 1],
      ['next:1x2x4x6', 5],
    ]);
    // activations grow with the pixels of a batch; FLOPs with every run
    const bigger = planVaeDecode(released, [1, 13, 16, 8, 12]);
    expect(bigger.activationPeakBytes.cpu).toBeGreaterThan(3.5 * plan.activationPeakBytes.cpu);
    expect(bigger.flops).toBeGreaterThan(3.5 * plan.flops);
  });

  it('full resolution fits no browser untiled; the chosen tiles fit the page budget, each tile far smaller', () => {
    const whole = planVaeDecode(released, [1, 13, 16, 60, 90]);
    expect(whole.fit.wasm).toBe(false);
    const chosen = chooseVaeTiling(released, [1, 13, 16, 60, 90]);
    expect(chosen.tiled).toBe(true);
    expect(chosen.misses).toEqual([]);
    expect(chosen.needBytes).toBeLessThanOrEqual(VAE_PAGE_BUDGET.wasm.bytes);
    expect(chosen.activationPeakBytes.cpu).toBeLessThan(whole.activationPeakBytes.cpu / 3);
  });

  it("the preview's latents: tiles whose every buffer one WebGPU binding holds, on WASM tiles within the heap budget", () => {
    for (const budget of [VAE_PAGE_BUDGET.wasm, VAE_PAGE_BUDGET.webgpu]) {
      const chosen = chooseVaeTiling(released, [1, 13, 16, 30, 44], undefined, budget);
      expect(chosen.misses, budget.device).toEqual([]);
      expect(chosen.decode.tile).toBe(true);
      expect(tilesLineUp(released, tileGeometry(released, chosen.decode.tileSize))).toBe(true);
      if (budget.device === 'webgpu') expect(chosen.fit.webgpu).toBe(true);
    }
  });
});

describe('float16', () => {
  it('holds half the weight bytes; halves activations on WebGPU only (CPU and WASM run float16 as float32 kernels)', () => {
    const dims = [1, 3, 16, 4, 6];
    const f32 = planVaeDecode(released, dims, { precision: 'float32' });
    const f16 = planVaeDecode(released, dims, { precision: 'float16' });
    expect(f16.precision).toBe('float16');
    expect(f16.weightBytes / f32.weightBytes).toBeCloseTo(0.5, 2);
    // the group norms' float32 statistics keep WebGPU's peak above half float32's
    expect(f16.activationPeakBytes.webgpu / f32.activationPeakBytes.webgpu).toBeGreaterThan(0.5);
    expect(f16.activationPeakBytes.webgpu / f32.activationPeakBytes.webgpu).toBeLessThan(0.8);
    expect(f16.activationPeakBytes.cpu).toBeGreaterThanOrEqual(f32.activationPeakBytes.cpu);
    expect(f16.flops).toBe(f32.flops);
  });

  it("WebGPU's tiles grow with float16 (the preview's latents): fewer of them, each within the budget", () => {
    const dims = [1, 13, 16, 30, 44];
    const f32 = chooseVaeTiling(released, dims, undefined, VAE_PAGE_BUDGET.webgpu, 'float32');
    const f16 = chooseVaeTiling(released, dims, undefined, VAE_PAGE_BUDGET.webgpu, 'float16');
    expect(f16.misses).toEqual([]);
    expect(f16.tiles).toBeLessThan(f32.tiles);
  });
});

describe('chooseVaeTiling', () => {
  const small = parseVaeConfig({ ...SMALL_VAE_CONFIG, latent_channels: 4 });

  it('untiled within the budget; else the tiles that fit, which line up; the least tile with its misses when none does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0.05, max: 1.5, noNaN: true }),
        fc.constantFrom<VaeBudget['device']>('wasm', 'webgpu'),
        (frames, h, w, share, device) => {
          const dims = [1, frames, 4, h, w];
          const whole = chooseVaeTiling(small, dims, undefined, { device, bytes: Infinity });
          expect(whole.tiled).toBe(false);
          const budget = { device, bytes: Math.round(share * whole.needBytes) };
          const limits = { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: Math.round(share * 2 ** 16) };
          const chosen = chooseVaeTiling(small, dims, limits, budget);
          const buffers = chosen.batches.flatMap((b) => b.webgpu.buffers.map((x) => x.bytes));
          if (chosen.misses.length === 0) {
            expect(chosen.needBytes).toBeLessThanOrEqual(budget.bytes);
            if (device === 'webgpu') expect(Math.max(...buffers)).toBeLessThanOrEqual(bindingLimit(limits));
          } else if (chosen.tiled) {
            // none fits: the least tile there is (6 x 5 latents, or the latents where smaller)
            const [th, tw] = tileGeometry(small, chosen.decode.tileSize).latent;
            expect([Math.min(th, h), Math.min(tw, w)]).toEqual([Math.min(6, h), Math.min(5, w)]);
          }
          if (
            share >= 1 &&
            (device === 'wasm' ||
              Math.max(...whole.batches.flatMap((b) => b.webgpu.buffers.map((x) => x.bytes))) <= bindingLimit(limits))
          )
            expect(chosen.tiled).toBe(false);
          if (chosen.tiled) expect(tilesLineUp(small, tileGeometry(small, chosen.decode.tileSize))).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });
});
