import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../graph/config.ts';
import { CONSISID_TINY_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { planFit, precisionFit, segmentOutcome, type AdapterCaps, type SegmentOutcome } from './fit.ts';
import { CONSISID_CONFIG } from '../models/consisid/named-configs.ts';
import { WASM_HEAP_BYTES, type PrecisionPlan } from './plan.ts';
import { planSegments } from './segment-plan.ts';
import { WEIGHT_PRECISIONS } from './precision.ts';
import type { GraphShape } from '../graph/transformer.ts';
import { FIT_CASES } from '../test-support/fit-cases.ts';
import FIT_EXPECTED from '../test-support/fit-expected.json' with { type: 'json' };

const GIB = 2 ** 30;
const bytes = fc.integer({ min: 0, max: 6 * GIB });
const buffer = (name: fc.Arbitrary<string>) => fc.record({ name, bytes });
const weightName = fc.oneof(
  fc.nat(5).map((b) => `transformer_blocks.${b}.attn1.to_q.weight`),
  fc.nat(5).map((b) => `transformer_blocks.${b}/Cast_${b}`),
  fc.constantFrom('patch_embed.text_proj.weight', 'proj_out.weight', 'modulation/Concat_3'),
);

const plan: fc.Arbitrary<PrecisionPlan> = fc
  .record({
    weights: fc.constantFrom(...WEIGHT_PRECISIONS),
    device: fc.constantFrom('webgpu' as const, 'wasm' as const),
    weightBuffers: fc.array(buffer(weightName), { maxLength: 12 }),
    runtime: fc.array(buffer(fc.constantFrom('x/MatMul', 'x/Add')), { maxLength: 6 }),
    activationPeakBytes: bytes,
  })
  .map(({ runtime, weightBuffers, ...p }) => {
    const buffers = [...weightBuffers, ...runtime].sort((a, b) => b.bytes - a.bytes);
    return {
      ...p,
      weightBuffers,
      buffers,
      weightBytes: weightBuffers.reduce((s, w) => s + w.bytes, 0),
      largestBuffer: buffers[0] ?? { name: '', bytes: 0 },
      livePeakBytes: p.activationPeakBytes,
      bufferDemand: null,
      flops: 0,
    };
  });

const limit = fc.integer({ min: 128 * 2 ** 20, max: 2 ** 40 });
const adapter: fc.Arbitrary<AdapterCaps> = fc.record({
  limits: fc.record({ maxBufferSize: limit, maxStorageBufferBindingSize: limit }),
  shaderF16: fc.boolean(),
  subgroups: fc.boolean(),
  subgroupMinSize: fc.option(fc.constantFrom(4, 8, 16, 32, 64)),
});

/** a segment plan's outcome: n segments of these weight bytes, or a refusal */
const outcome: fc.Arbitrary<SegmentOutcome> = fc.oneof(
  fc.array(bytes, { minLength: 1, maxLength: 6 }).map((sizes) => ({
    plan: {
      segments: sizes.map((weightBytes, i) => ({
        from: i,
        to: i + 1,
        weightBytes,
        largestWeight: { name: 'w', bytes: weightBytes },
        activationPeakBytes: 0,
        bufferDemand: null,
        flops: 0,
      })),
      device: 'webgpu' as const,
      weights: 'float32' as const,
      heapBudget: GIB,
      bufferLimit: null,
    },
  })),
  fc.string({ minLength: 1 }).map((refused) => ({ refused })),
);

describe('precisionFit', () => {
  // the heap rule on WebGPU is the segment plan's (planSegments): a precision fits the heap iff it found segments
  it('refuses a precision iff a buffer exceeds a binding, the heap rule fails, or WebGPU float16 lacks shader-f16', () => {
    fc.assert(
      fc.property(plan, adapter, outcome, (p, a, o) => {
        const webgpu = p.device === 'webgpu';
        const f = precisionFit(p, webgpu ? a : null, webgpu ? o : null);
        const binding = Math.min(a.limits.maxBufferSize, a.limits.maxStorageBufferBindingSize);
        // segmented, the segment plan checked each segment's buffers: the whole graph's are not read
        const bound = 'plan' in o ? [] : p.buffers;
        const overBinding = webgpu && bound.some((b) => b.bytes > binding);
        const noF16 = webgpu && p.weights === 'float16' && !a.shaderF16;
        const overHeap = webgpu ? 'refused' in o : p.weightBytes + p.activationPeakBytes > WASM_HEAP_BYTES;
        expect(f.fits).toBe(!overBinding && !noF16 && !overHeap);
        // one reason per rule missed, none when it fits; the segment plan's refusal is shown as it gave it
        expect(f.reasons.length).toBe(Number(overBinding) + Number(noF16) + Number(overHeap));
        if (webgpu && 'refused' in o) expect(f.reasons).toContain(`WebGPU: ${o.refused}`);
      }),
    );
  });

  it('larger limits, or shader-f16 gained, never turn a fit into a refusal', () => {
    const more = fc.integer({ min: 0, max: 2 ** 40 });
    fc.assert(
      fc.property(plan, adapter, more, more, fc.boolean(), (p, a, extraBuffer, extraBinding, f16) => {
        const larger: AdapterCaps = {
          ...a,
          shaderF16: a.shaderF16 || f16,
          limits: {
            maxBufferSize: a.limits.maxBufferSize + extraBuffer,
            maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize + extraBinding,
          },
        };
        const device = { ...p, device: 'webgpu' as const };
        const segments = {
          plan: { segments: [], device: 'webgpu' as const, weights: p.weights, heapBudget: GIB, bufferLimit: null },
        };
        if (precisionFit(device, a, segments).fits) expect(precisionFit(device, larger, segments).fits).toBe(true);
      }),
    );
  });

  it('on WebGPU the GPU memory needed is weights + activation peak, never checked; WASM has none', () => {
    fc.assert(
      fc.property(plan, adapter, (p, a) => {
        const f = precisionFit(p, p.device === 'webgpu' ? a : null);
        expect(f.gpuBytes).toBe(p.device === 'webgpu' ? p.weightBytes + p.activationPeakBytes : null);
        expect(f.reasons.some((r) => /GPU memory/.test(r))).toBe(false);
      }),
    );
  });

  it("the WASM heap on WebGPU holds the largest segment's weights, with the segments counted; on WASM everything", () => {
    fc.assert(
      fc.property(plan, adapter, outcome, (p, a, o) => {
        const webgpu = p.device === 'webgpu';
        const f = precisionFit(p, webgpu ? a : null, webgpu ? o : null);
        const planned = 'plan' in o ? o.plan.segments : null;
        expect(f.segments).toBe(webgpu && planned ? planned.length : null);
        expect(f.heapBytes).toBe(
          webgpu ? Math.max(0, ...(planned ?? []).map((s) => s.weightBytes)) : p.weightBytes + p.activationPeakBytes,
        );
      }),
    );
  });
});

describe('planFit on built graphs', () => {
  const shape: GraphShape = {
    batch: 1,
    frames: 2,
    height: 4,
    width: 4,
    textLength: 8,
    timestepCond: false,
    rotary: true,
    face: { idBatch: 1, vitLengths: [5, 5, 5, 5, 5] },
  };
  const roomy: AdapterCaps = {
    limits: { maxBufferSize: 2 ** 40, maxStorageBufferBindingSize: 2 ** 31 - 4 },
    shaderF16: false,
    subgroups: true,
    subgroupMinSize: 32,
  };

  it('on WebGPU the segment plan is the heap rule: its segments and largest segment, or its refusal', () => {
    const config = parseConfig({ ...CONSISID_TINY_CONFIG, num_layers: 3 });
    const whole = planFit(config, shape, 'webgpu', roomy);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 * whole[0]!.weightBytes }), (heapBudget) => {
        for (const f of planFit(config, shape, 'webgpu', roomy, heapBudget)) {
          const o = segmentOutcome(config, shape, f.weights, roomy, heapBudget);
          if ('refused' in o) {
            expect(f.fits).toBe(false);
            expect(f.reasons).toContain(`WebGPU: ${o.refused}`);
            continue;
          }
          const plan = planSegments(config, shape, {
            device: 'webgpu',
            weights: f.weights,
            limits: roomy.limits,
            heapBudget,
          });
          expect(f.segments).toBe(plan.segments.length);
          expect(f.heapBytes).toBeLessThanOrEqual(heapBudget);
          expect(f.heapBytes).toBe(Math.max(...plan.segments.map((s) => s.weightBytes)));
          // the segments share the EP's buffer cache: the page's activation peak bounds what each segment's session holds
          expect(f.activationPeakBytes).toBeGreaterThanOrEqual(
            Math.max(...plan.segments.map((s) => s.activationPeakBytes)),
          );
          expect(f.gpuBytes).toBe(f.weightBytes + f.activationPeakBytes);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('the released ConsisID (42 layers of 48 x 64): int4 fits a 2 GiB-binding adapter without shader-f16; at full size WASM fits none', () => {
    const config = parseConfig(CONSISID_CONFIG);
    const webgpu = Object.fromEntries(planFit(config, shape, 'webgpu', roomy).map((f) => [f.weights, f]));
    expect(webgpu.int4!.fits).toBe(true);
    expect(webgpu.int4!.heapBytes).toBeLessThan(2 * GIB);
    expect(webgpu.int4!.segments).toBeGreaterThanOrEqual(1);
    // int8 in segments: the whole graph's dequantized modulation of all 42 layers (3036 MiB) would pass a 2 GiB binding,
    // each segment's (its own blocks') does not
    expect(webgpu.int8!.segments).toBeGreaterThan(1);
    expect(webgpu.int8!.fits).toBe(true);
    expect(webgpu.float16!.reasons).toEqual([expect.stringMatching(/shader-f16/)]);
    // the modulation of all 42 layers is one concatenated weight: 3036 MiB, over any 2 GiB binding
    expect(webgpu.float32!.reasons[0]).toMatch(/over the 2\.00 GiB .* modulation\/Concat_\d+ \(2\.96 GiB\)/);
    expect(webgpu.float32!.gpuBytes).toBeGreaterThan(22 * GIB);
    // at the released size (13 latent frames of 60 x 90, 226 text tokens) the activations alone pass 4 GiB
    const full = { ...shape, frames: 13, height: 60, width: 90, textLength: 226 };
    const wasm = planFit(config, full, 'wasm', null);
    expect(wasm.filter((f) => f.fits)).toEqual([]);
    expect(wasm.map((f) => f.reasons[0])).toEqual(WEIGHT_PRECISIONS.map(() => expect.stringMatching(/4 GiB heap/)));
  });

  it("SwiftShader's 4-lane subgroups get attention decomposed: its (B, H, S, L) probabilities are planned, and refused over a 1 GiB binding", () => {
    const config = parseConfig({ ...CONSISID_TINY_CONFIG, num_layers: 1 });
    const wide = { ...shape, height: 12, width: 12 };
    const swiftshader: AdapterCaps = { ...roomy, subgroupMinSize: 4 };
    const [fused, decomposed] = [roomy, swiftshader].map((a) => planFit(config, wide, 'webgpu', a)[0]!);
    expect(decomposed!.activationPeakBytes).toBeGreaterThan(fused!.activationPeakBytes);
    const tight = { ...swiftshader, limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 1000 } };
    expect(planFit(config, wide, 'webgpu', tight)[0]!.reasons[0]).toMatch(/buffer\(s\) over the 1\.0 KiB/);
  });
});

describe('planFit in one pass per precision', () => {
  // fit-expected.json was captured from the planner that built each precision's whole graph, then its segments apart
  it('gives what the two-pass planner gave, for the released ConsisID and small configs', () => {
    for (const c of FIT_CASES)
      expect({ [c.name]: planFit(c.config, c.shape, c.device, c.adapter, c.heapBudget) }).toEqual({
        [c.name]: (FIT_EXPECTED as Record<string, unknown>)[c.name],
      });
  });
});
