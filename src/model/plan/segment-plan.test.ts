import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseConfig } from '../graph/config.ts';
import { PREVIEW_S_CONFIG, CONSISID_CONFIG } from '../models/consisid/named-configs.ts';
import { planPrecisions } from './plan.ts';
import { planSegments, SegmentPlanError } from './segment-plan.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { checkSegments } from '../graph/segments.ts';
import { main } from '../cli.ts';

const MiB = 2 ** 20;
const previewS = parseConfig(PREVIEW_S_CONFIG, 'preview-s');
const shape: GraphShape = {
  batch: 1,
  frames: 2,
  height: 16,
  width: 16,
  textLength: 16,
  timestepCond: false,
  rotary: false,
  face: { idBatch: 1, vitLengths: Array<number>(5).fill(9) },
};
const roomy = { maxBufferSize: 2 ** 40, maxStorageBufferBindingSize: 2 ** 31 };

describe('planSegments', () => {
  it("checks each segment's run-time buffers too: decomposed attention's scores over a binding refuse the block", () => {
    const wide = { ...shape, height: 64, width: 64 };
    const limits = { maxBufferSize: 2 ** 40, maxStorageBufferBindingSize: 64 * MiB };
    const fused = planSegments(previewS, wide, { device: 'webgpu', weights: 'int4', limits, heapBudget: 2 ** 30 });
    expect(fused.segments.length).toBeGreaterThanOrEqual(1);
    expect(() =>
      planSegments(previewS, wide, {
        device: 'webgpu',
        weights: 'int4',
        limits,
        heapBudget: 2 ** 30,
        attention: 'decomposed',
      }),
    ).toThrow(/block 0 with the embeddings alone: its run-time buffer .* is over the 64.0 MiB/);
  });

  it('auto: as few segments as fit the heap budget and the buffer limit, covering every block', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        fc.constantFrom('float32' as const, 'int4' as const),
        fc.integer({ min: 120, max: 900 }),
        fc.integer({ min: 40, max: 128 }),
        (weights, budgetMiB, bindingMiB) => {
          const opts = {
            device: 'webgpu' as const,
            weights,
            heapBudget: budgetMiB * MiB,
            limits: { maxBufferSize: 256 * MiB, maxStorageBufferBindingSize: bindingMiB * MiB },
          };
          let plan;
          try {
            plan = planSegments(previewS, shape, opts);
          } catch (e) {
            // refused only when one block is over a limit by itself
            seen.add('refused');
            expect(e).toBeInstanceOf(SegmentPlanError);
            expect((e as Error).message).toMatch(/block \d+ .*alone: its (weights|weight \S+) \(/);
            return;
          }
          seen.add(plan.segments.length > 1 ? 'several' : 'one');
          checkSegments(8, plan.segments);
          for (const s of plan.segments) {
            expect(s.weightBytes).toBeLessThanOrEqual(opts.heapBudget);
            expect(s.largestWeight.bytes).toBeLessThanOrEqual(bindingMiB * MiB);
          }
          // fewest: one segment fewer does not fit, however the blocks are shared out
          if (plan.segments.length > 1)
            expect(() => planSegments(previewS, shape, { ...opts, segments: plan.segments.length - 1 })).toThrow(
              SegmentPlanError,
            );
        },
      ),
      { numRuns: 10, seed: 5 },
    );
    expect([...seen].sort()).toEqual(['one', 'refused', 'several']);
  });

  it("segments hold the whole graph's weights between them, each within its budget", () => {
    const whole = planPrecisions(previewS, shape, 'webgpu').find((p) => p.weights === 'float16')!;
    const plan = planSegments(previewS, shape, {
      device: 'webgpu',
      weights: 'float16',
      heapBudget: 320 * MiB,
      limits: roomy,
    });
    // the identity module outweighs the blocks at this width: block 0 goes alone
    expect(plan.segments.map((s) => [s.from, s.to])).toEqual([
      [0, 1],
      [1, 8],
    ]);
    const total = plan.segments.reduce((s, x) => s + x.weightBytes, 0);
    // only small constants (norm gains of ones, the modulation's one-hot) are repeated per segment
    expect(total).toBeGreaterThanOrEqual(whole.weightBytes);
    expect(total).toBeLessThan(whole.weightBytes * 1.001);
    expect(plan.bufferLimit).toBe(2 ** 31);
  });

  it('n segments: equal block counts, refused when one is over a limit', () => {
    const plan = planSegments(previewS, shape, { device: 'cpu', segments: 3, heapBudget: 2 ** 40 });
    expect(plan.segments.map((s) => [s.from, s.to])).toEqual([
      [0, 3],
      [3, 6],
      [6, 8],
    ]);
    expect(plan.bufferLimit).toBeNull();
    expect(() => planSegments(previewS, shape, { device: 'cpu', segments: 2, heapBudget: 300 * MiB })).toThrow(
      /float32 weights on cpu do not fit in segments: blocks 0-3 with the embeddings as one segment: its weights \(\d+\.\d MiB\) are over the 300\.0 MiB heap budget/,
    );
    expect(() => planSegments(previewS, shape, { device: 'cpu', segments: 9 })).toThrow(
      /segments: 9 is not a whole number of segments from 1 to the 8 blocks/,
    );
  });

  it('names the block and what is over when a single block does not fit', () => {
    expect(() => planSegments(previewS, shape, { device: 'webgpu', heapBudget: 60 * MiB, limits: roomy })).toThrow(
      /float32 weights on webgpu do not fit in segments: block 0 with the embeddings alone: its weights \(\d+\.\d MiB\) are over the 60\.0 MiB heap budget of a segment$/,
    );
    expect(() =>
      planSegments(previewS, shape, {
        device: 'webgpu',
        limits: { maxBufferSize: 8 * MiB, maxStorageBufferBindingSize: 2 ** 31 },
      }),
    ).toThrow(
      /block 0 with the embeddings alone: its weight \S+ \(\d+\.\d MiB\) is over the 8\.0 MiB one WebGPU buffer may hold \(maxBufferSize 8\.0 MiB/,
    );
  });

  it('refuses on wasm what its heap cannot keep, however it is split', () => {
    // the real width, 10 of its 42 layers: 5 GiB of float32 weights
    const wide = parseConfig({ ...CONSISID_CONFIG, num_layers: 10 }, 'consisid');
    const opts = { device: 'wasm' as const, heapBudget: 2 ** 40 };
    expect(() => planSegments(wide, { ...shape, rotary: true }, opts)).toThrow(
      /float32 weights on wasm do not fit: the WASM heap keeps every segment's weights \(\d\.\d\d GiB\) and the activations \([\d.]+ MiB\), over its 4 GiB; segments help only on WebGPU/,
    );
    expect(planSegments(wide, { ...shape, rotary: true }, { ...opts, weights: 'int4' }).segments).toHaveLength(1);
  });

  it("consisid plan --segments shows each precision's segments, or why not", async () => {
    const lines: string[] = [];
    const args = ['plan', '--model', 'preview-s', '--shape', 'frames=2,height=16,width=16,text=16,vit=9'];
    expect(await main([...args, '--segments', 'auto', '--heap-budget', String(700 * MiB)], (l) => lines.push(l))).toBe(
      0,
    );
    const out = lines.join('\n');
    expect(out).toMatch(
      /segments on WebGPU \(as few as fit; at most 700\.0 MiB of weights per segment, no weight buffer over 128\.0 MiB\):/,
    );
    expect(out).toMatch(/^float32 +2 segment\(s\): blocks 0-2 [\d.]+ MiB \(largest [\d.]+ MiB\), blocks 3-7 /m);
    expect(out).toMatch(/^int4 +1 segment\(s\): blocks 0-7 /m);
    lines.length = 0;
    expect(await main([...args, '--segments', '8', '--heap-budget', String(10 * MiB)], (l) => lines.push(l))).toBe(0);
    expect(lines.join('\n')).toMatch(
      /^float16 +refused: float16 weights on webgpu do not fit in segments: block 0 with the embeddings alone: its weights/m,
    );
    expect(await main([...args, '--segments', 'many'], () => {})).toBe(2);
    expect(await main([...args, '--segments', '2', '--heap-budget', '1e9'], () => {})).toBe(2);
  });
});
