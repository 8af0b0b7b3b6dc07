import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseVaeTiling, type VaeBudget, type VaeTilingChoice } from '../models/vae/plan.ts';
import { parseVaeConfig } from '../models/vae/config.ts';
import { DEMO_VAE_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { WEBGPU_DEFAULT_LIMITS } from '../plan/plan.ts';
import { heldBeside, placeDecode, transformerHeldBytes, type TransformerFit } from './decode-beside.ts';

/**
 * A tiler as chooseVaeTiling behaves: candidates in order of preference (each a need in bytes), the
 * first whose need fits the budget, else the last with its miss.
 */
const tilerOf =
  (needs: number[]) =>
  (budget: VaeBudget): VaeTilingChoice => {
    const need = needs.find((n) => n <= budget.bytes) ?? needs.at(-1)!;
    const misses = need <= budget.bytes ? [] : [`${need} exceed ${budget.bytes}`];
    return { needBytes: need, budget, misses } as VaeTilingChoice;
  };

const budgets = fc.record({ device: fc.constantFrom('wasm' as const, 'webgpu' as const), bytes: fc.nat(4e9) });
const held = fc.oneof(fc.constant(0), fc.nat(5e9), fc.constant(Infinity));
const needs = fc.array(fc.integer({ min: 1, max: 5e9 }), { minLength: 1, maxLength: 6 });

describe('placeDecode', () => {
  it('never plans a decode past the budget less what stays held; it releases only when nothing fits beside', () => {
    fc.assert(
      fc.property(budgets, held, needs, (budget, heldBytes, ns) => {
        const tiling = tilerOf(ns);
        const placed = placeDecode(tiling, budget, heldBytes);
        const stays = placed.beside ? placed.heldBytes : 0;
        if (placed.plan.misses.length === 0) expect(placed.plan.needBytes + stays).toBeLessThanOrEqual(budget.bytes);
        // beside held sessions only where the decode fits what they leave
        if (placed.beside && heldBytes > 0) expect(placed.plan.misses).toEqual([]);
        if (!placed.beside) {
          // released: nothing fitted what was left, and the whole budget is tiled for (its misses are the refusal)
          const left = budget.bytes - heldBytes;
          expect(left <= 0 || tiling({ ...budget, bytes: left }).misses.length > 0).toBe(true);
          expect(placed.plan).toEqual(tiling(budget));
        }
        expect(placed.heldBytes).toBe(heldBytes);
      }),
    );
  });

  it('with nothing held tiles for the whole budget, beside nothing', () => {
    fc.assert(
      fc.property(budgets, needs, (budget, ns) => {
        expect(placeDecode(tilerOf(ns), budget, 0)).toEqual({ plan: tilerOf(ns)(budget), beside: true, heldBytes: 0 });
      }),
    );
  });

  it("on the demo VAE's tiles: beside with the untiled decode, beside in tiles, released, refused", () => {
    const config = parseVaeConfig(DEMO_VAE_CONFIG, 'vae/config.json');
    const tiling = (b: VaeBudget) => chooseVaeTiling(config, [1, 2, 4, 12, 16], WEBGPU_DEFAULT_LIMITS, b);
    const alone = tiling({ device: 'wasm', bytes: 1.4e9 });
    const smallest = tiling({ device: 'wasm', bytes: 1 });
    expect(alone.tiles).toBe(1);
    expect(smallest.needBytes).toBeLessThan(alone.needBytes);
    const budget = (bytes: number): VaeBudget => ({ device: 'wasm', bytes });
    const place = (bytes: number, heldBytes: number) => {
      const p = placeDecode(tiling, budget(bytes), heldBytes);
      return { beside: p.beside, tiles: p.plan.tiles, fits: p.plan.misses.length === 0, need: p.plan.needBytes };
    };
    const held = 1e6;
    expect(place(alone.needBytes + held, held)).toEqual({ beside: true, tiles: 1, fits: true, need: alone.needBytes });
    // less than the untiled decode left beside: tiles that fit what is left
    const tiled = place(alone.needBytes + held - 1, held);
    expect(tiled).toMatchObject({ beside: true, fits: true });
    expect(tiled.tiles).toBeGreaterThan(1);
    expect(tiled.need + held).toBeLessThanOrEqual(alone.needBytes + held - 1);
    // not even the smallest tile beside: released, tiled for the whole budget
    expect(place(smallest.needBytes + held - 1, held)).toMatchObject({ beside: false, fits: true });
    expect(place(smallest.needBytes - 1, held)).toMatchObject({ beside: false, fits: false });
  });
});

describe('what the transformer holds beside a decode', () => {
  const fit = (device: TransformerFit['device'], weights: TransformerFit['weights'] = 'float32'): TransformerFit => ({
    device,
    weights,
    gpuBytes: device === 'webgpu' ? 300 : null,
    heapBytes: 200,
  });
  const loaded = (device: TransformerFit['device'], weightPrecision: TransformerFit['weights'] = 'float32') => ({
    device,
    weightPrecision,
    release: async () => undefined,
  });

  it("is the fit panel's figure: GPU memory needed on WebGPU, the WASM heap at once on WASM", () => {
    expect(transformerHeldBytes(fit('webgpu'))).toBe(300);
    expect(transformerHeldBytes(fit('wasm'))).toBe(200);
    expect(transformerHeldBytes({ ...fit('webgpu'), gpuBytes: null })).toBe(Infinity);
  });

  it("counts the loaded model's fit, nothing when none is loaded, and an unknown amount for another's", () => {
    expect(heldBeside(fit('wasm'), null, 'wasm')).toBe(0);
    expect(heldBeside(null, null, 'wasm')).toBe(0);
    expect(heldBeside(fit('webgpu'), loaded('webgpu'), 'webgpu')).toBe(300);
    expect(heldBeside(fit('wasm', 'int8'), loaded('wasm', 'int8'), 'wasm')).toBe(200);
    // the fit of another precision or device (a fallback), or none: release rather than guess
    expect(heldBeside(fit('wasm', 'float16'), loaded('wasm'), 'wasm')).toBe(Infinity);
    expect(heldBeside(fit('webgpu'), loaded('wasm'), 'wasm')).toBe(Infinity);
    expect(heldBeside(null, loaded('wasm'), 'wasm')).toBe(Infinity);
  });
});
