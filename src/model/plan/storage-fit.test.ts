import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../graph/config.ts';
import { planFit, type PrecisionFit } from './fit.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { CONSISID_CONFIG } from '../models/consisid/named-configs.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from './precision.ts';
import { formatBytes } from './format-bytes.ts';
import { SEGMENT_HEAP_BUDGET } from './segment-plan.ts';
import {
  storageNeed,
  storageReason as reasonIn,
  withStorage as withStorageIn,
  type BrowserStorage,
} from './storage-fit.ts';
import { memoryBudget } from './memory-budget.ts';
import { roomy } from '../test-support/fit-cases.ts';

const GIB = 2 ** 30;
/** the rules with a budget of `budget` bytes (memoryBudget makes it: WebGPU's heap budget) */
const storageReason = (w: WeightPrecision, weightBytes: number, s: BrowserStorage, budget: number, passing?: number) =>
  reasonIn(w, weightBytes, s, memoryBudget('webgpu', budget), passing);
const withStorage = <F extends PrecisionFit>(fits: readonly F[], s: BrowserStorage, budget = SEGMENT_HEAP_BUDGET) =>
  withStorageIn(fits, s, memoryBudget('webgpu', budget));
const bytes = fc.integer({ min: 0, max: 16 * GIB });
const precision = fc.constantFrom(...WEIGHT_PRECISIONS);
const storage: fc.Arbitrary<BrowserStorage> = fc.record({
  free: bytes,
  unusable: fc.option(fc.constantFrom('private mode', 'no OPFS'), { nil: null }),
  cached: fc.dictionary(precision, fc.record({ bytes, complete: fc.boolean() })) as fc.Arbitrary<
    BrowserStorage['cached']
  >,
});

describe('the storage rule: converted weights need room in the browser cache or within the memory budget', () => {
  it('weights within the memory budget, float32 and weights cached whole always fit; past the budget only with room', () => {
    fc.assert(
      fc.property(precision, bytes, storage, bytes, (weights, weightBytes, s, budget) => {
        const why = storageReason(weights, weightBytes, s, budget);
        const cached = s.cached?.[weights];
        const uncached = weightBytes - Math.min(weightBytes, cached?.bytes ?? 0);
        const room = s.unusable === null ? s.free : 0;
        if (weights === 'float32' || cached?.complete || uncached <= budget || uncached <= room) expect(why).toBeNull();
        else {
          expect(why).toContain(`the ${weights} weights need ${formatBytes(uncached)} of browser storage`);
          expect(why).toContain(s.unusable === null ? `${formatBytes(s.free)} is free` : s.unusable);
          expect(why).toContain(formatBytes(budget));
        }
      }),
    );
  });

  it('the bytes held in memory and the largest segment passing beside them stay within the budget', () => {
    fc.assert(
      fc.property(precision, bytes, storage, bytes, bytes, (weights, weightBytes, s, budget, passing) => {
        const why = storageReason(weights, weightBytes, s, budget, passing);
        const need = storageNeed(weights, weightBytes, s);
        const room = s.unusable === null ? s.free : 0;
        // allowed exactly when the storage takes it, or memory holds it beside the passing segment
        expect(why === null).toBe(need <= room || need + passing <= budget);
        // a segment passing through takes from what memory may hold: never a refusal lifted by it
        if (storageReason(weights, weightBytes, s, budget) !== null) expect(why).not.toBeNull();
        if (why !== null && passing > 0 && passing < budget)
          expect(why).toContain(
            `(${formatBytes(budget)} less the ${formatBytes(passing)} a segment passes through it)`,
          );
      }),
    );
  });

  it('more free space, more of the checkpoint cached or a larger budget never turn a fit into a refusal', () => {
    fc.assert(
      fc.property(precision, bytes, storage, bytes, bytes, (weights, weightBytes, s, budget, more) => {
        if (storageReason(weights, weightBytes, s, budget) !== null) return;
        const had = s.cached?.[weights] ?? { bytes: 0, complete: false };
        expect(storageReason(weights, weightBytes, { ...s, free: s.free + more }, budget)).toBeNull();
        expect(storageReason(weights, weightBytes, s, budget + more)).toBeNull();
        const cached = { ...s.cached, [weights]: { ...had, bytes: had.bytes + more } };
        expect(storageReason(weights, weightBytes, { ...s, cached }, budget)).toBeNull();
      }),
    );
  });

  it('a refused precision names the precisions that fit instead, and leaves the others as they were', () => {
    const fitOf = (weights: WeightPrecision, weightBytes: number, fits: boolean): PrecisionFit => ({
      weights,
      device: 'webgpu',
      weightBytes,
      activationPeakBytes: 0,
      gpuBytes: weightBytes,
      heapBytes: 0,
      segments: 1,
      largestBuffer: { name: 'w', bytes: 0 },
      fits,
      reasons: fits ? [] : ['WebGPU: no'],
    });
    fc.assert(
      fc.property(
        fc.tuple(bytes, bytes, bytes, bytes),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        storage,
        bytes,
        (sizes, ok, s, budget) => {
          const fits = WEIGHT_PRECISIONS.map((w, i) => fitOf(w, sizes[i]!, ok[i]!));
          const got = withStorage(fits, s, budget);
          const fitting = got.filter((f) => f.fits).map((f) => f.weights);
          got.forEach((f, i) => {
            const why = storageReason(f.weights, f.weightBytes, s, budget);
            if (!why) return expect(f).toEqual(fits[i]);
            expect(f.fits).toBe(false);
            const instead = fitting.length
              ? `free browser storage, or choose ${fitting.join(' or ')}`
              : 'free browser storage';
            expect(f.reasons).toEqual([...fits[i]!.reasons, `${why}: ${instead}`]);
          });
        },
      ),
    );
  });

  it('the released ConsisID with 1.2 GB free: int4 and int8 are refused before download, naming the sizes; with room they fit', () => {
    const shape: GraphShape = {
      batch: 1,
      frames: 2,
      height: 4,
      width: 4,
      textLength: 16,
      timestepCond: false,
      rotary: true,
      face: null,
    };
    const config = parseConfig(CONSISID_CONFIG);
    const plain = planFit(config, shape, 'webgpu', { ...roomy, shaderF16: false });
    const int4 = plain.find((f) => f.weights === 'int4')!;
    expect(int4.fits).toBe(true);
    // float32 converts nothing: its files stream through as they are
    expect(plain.find((f) => f.weights === 'float32')!.fits).toBe(true);
    const full = withStorage(plain, { free: 1.2e9, unusable: null });
    const refused = full.find((f) => f.weights === 'int4')!;
    expect(refused.fits).toBe(false);
    // what memory may hold is the budget less the largest segment's weights, which pass through the heap beside it
    expect(int4.heapBytes).toBeGreaterThan(0);
    const held = SEGMENT_HEAP_BUDGET - int4.heapBytes;
    expect(refused.reasons).toEqual([
      `the int4 weights need ${formatBytes(int4.weightBytes)} of browser storage; ${formatBytes(1.2e9)} is free, and they are over the ${formatBytes(held)} the page may hold in memory instead (${formatBytes(SEGMENT_HEAP_BUDGET)} less the ${formatBytes(int4.heapBytes)} a segment passes through it): free browser storage, or choose float32`,
    ]);
    expect(full.find((f) => f.weights === 'int8')!.fits).toBe(false);
    expect(full.find((f) => f.weights === 'float32')!.fits).toBe(true);
    // int4 cached whole by an earlier visit: nothing more to store, while int8 is still refused
    const cached = withStorage(plain, { free: 0, unusable: null, cached: { int4: { bytes: 1, complete: true } } });
    expect(cached.filter((f) => f.fits).map((f) => f.weights)).toEqual(['float32', 'int4']);
    // with room for it, int4 fits
    expect(withStorage(plain, { free: 2 * int4.weightBytes, unusable: null })).toContainEqual(int4);
  });
});
