import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseVaeConfig } from './config.ts';
import { chooseVaeTiling, planVaeDecode, VAE_PAGE_BUDGET } from './plan.ts';
import { RELEASED_VAE_CONFIG } from './random-vae.ts';
import { tileGeometry } from './tiling.ts';
import { wasmPageBytes } from './wasm-page.ts';

const released = parseVaeConfig(RELEASED_VAE_CONFIG);

/**
 * Page JS + WASM after one 3 x 6 x 5-latent batch of the released decoder (the plan's WASM tile,
 * generated float32 weights) in Chromium, per onnxruntime-web thread count, the most of the runs
 * (bench/vae-page.ts; docs/vae.md, "In Chromium").
 */
const MEASURED: { threads: number; pageBytes: number }[] = [
  { threads: 1, pageBytes: 1_238_218_717 },
  { threads: 2, pageBytes: 1_380_577_221 },
  { threads: 3, pageBytes: 1_389_560_057 },
  { threads: 4, pageBytes: 1_371_477_531 },
];

const tile = planVaeDecode(released, [1, 3, 16, 6, 5]);
const planned = (threads: number) => wasmPageBytes(tile.weightBytes, tile.activationPeakBytes.cpu, threads);

describe('wasmPageBytes: the page a WASM decode takes', () => {
  it.each(MEASURED)(
    'covers the page measured at $threads thread(s), at most 1.15x over it',
    ({ threads, pageBytes }) => {
      expect(planned(threads)).toBeGreaterThanOrEqual(pageBytes);
      expect(planned(threads)).toBeLessThanOrEqual(1.15 * pageBytes);
    },
  );

  it('adds the same bytes at any thread count past one (measured flat from 2 to 4)', () => {
    expect(planned(2)).toBeGreaterThan(planned(1));
    for (let t = 3; t <= 16; t++) expect(planned(t)).toBe(planned(2));
  });

  it('refuses a thread count that is not a positive integer, naming it', () => {
    for (const t of [0, -1, 1.5, Number.NaN]) expect(() => wasmPageBytes(1, 1, t)).toThrow(/threads/);
  });
});

describe("chooseVaeTiling on WASM counts the page's threads", () => {
  const dims = [1, 3, 16, 30, 44];
  const area = (c: ReturnType<typeof chooseVaeTiling>) =>
    c.decode.tileSize ? tileGeometry(released, c.decode.tileSize).latent.reduce((a, b) => a * b, 1) : 30 * 44;

  it('the tiles shrink where threads push the page past the budget; each need counts its threads', () => {
    // 1 thread's tiles need 1.96 GB, the same tiles at more threads 2.12 GB
    const budget = { ...VAE_PAGE_BUDGET.wasm, bytes: 2.0e9 };
    const one = chooseVaeTiling(released, dims, undefined, budget);
    const eight = chooseVaeTiling(released, dims, undefined, { ...budget, threads: 8 });
    expect(one.misses).toEqual([]);
    expect(eight.misses).toEqual([]);
    expect(area(eight)).toBeLessThan(area(one));
    expect(eight.needBytes).toBe(wasmPageBytes(eight.weightBytes, eight.activationPeakBytes.cpu, 8));
  });

  it('for any thread count 1-16 and budget, the chosen tiles take at most the budget, or no tile fits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1_000, max: 5_000 }), (threads, mb) => {
        const budget = { ...VAE_PAGE_BUDGET.wasm, bytes: mb * 1e6, threads };
        const chosen = chooseVaeTiling(released, dims, undefined, budget);
        expect(chosen.needBytes).toBe(wasmPageBytes(chosen.weightBytes, chosen.activationPeakBytes.cpu, threads));
        if (chosen.misses.length === 0) expect(chosen.needBytes).toBeLessThanOrEqual(budget.bytes);
        else
          expect(wasmPageBytes(tile.weightBytes, tile.activationPeakBytes.cpu, threads)).toBeGreaterThan(budget.bytes);
      }),
      { numRuns: 40 },
    );
  });
});
