import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import { CONSISID_TINY_CONFIG } from './demo-checkpoints.ts';
import { heapBytes, planFit, precisionFit, type AdapterCaps } from './fit.ts';
import { CONSISID_CONFIG } from './named-configs.ts';
import { WASM_HEAP_BYTES, type PrecisionPlan } from './plan.ts';
import { WEIGHT_PRECISIONS } from './precision.ts';
import type { GraphShape } from './graph/transformer.ts';

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

describe('precisionFit', () => {
  it('refuses a precision iff a buffer exceeds a binding, the heap rule fails, or WebGPU float16 lacks shader-f16', () => {
    fc.assert(
      fc.property(plan, adapter, (p, a) => {
        const f = precisionFit(p, p.device === 'webgpu' ? a : null);
        const binding = Math.min(a.limits.maxBufferSize, a.limits.maxStorageBufferBindingSize);
        const overBinding = p.device === 'webgpu' && p.buffers.some((b) => b.bytes > binding);
        const noF16 = p.device === 'webgpu' && p.weights === 'float16' && !a.shaderF16;
        expect(f.fits).toBe(!overBinding && !noF16 && heapBytes(p) <= WASM_HEAP_BYTES);
        // one reason per rule missed, none when it fits
        expect(f.reasons.length).toBe(Number(overBinding) + Number(noF16) + Number(heapBytes(p) > WASM_HEAP_BYTES));
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
        if (precisionFit(device, a).fits) expect(precisionFit(device, larger).fits).toBe(true);
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

  it('the WASM heap on WebGPU holds one block and the weights outside blocks; on WASM everything', () => {
    fc.assert(
      fc.property(plan, (p) => {
        const blocks = new Map<string, number>();
        let shared = 0;
        for (const w of p.weightBuffers) {
          const b = /^transformer_blocks[./](\d+)[./]/.exec(w.name)?.[1];
          if (b === undefined) shared += w.bytes;
          else blocks.set(b, (blocks.get(b) ?? 0) + w.bytes);
        }
        expect(heapBytes(p)).toBe(
          p.device === 'webgpu' ? shared + Math.max(0, ...blocks.values()) : p.weightBytes + p.activationPeakBytes,
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

  it('on WebGPU the heap holds one block at a time: more layers add less to it than to the weights', () => {
    const [one, three] = [1, 3].map((layers) =>
      planFit(parseConfig({ ...CONSISID_TINY_CONFIG, num_layers: layers }), shape, 'webgpu', roomy),
    );
    for (const [i, w] of WEIGHT_PRECISIONS.entries()) {
      expect(three![i]!.weightBytes, w).toBeGreaterThan(one![i]!.weightBytes);
      // what the heap gains is the modulation the graph concatenates across all layers (outside any block)
      expect(three![i]!.heapBytes - one![i]!.heapBytes, w).toBeLessThan(three![i]!.weightBytes - one![i]!.weightBytes);
      expect(three![i]!.heapBytes, w).toBeLessThan(three![i]!.weightBytes);
    }
  });

  it('the released ConsisID (42 layers of 48 x 64): int4 fits a 2 GiB-binding adapter without shader-f16; at full size WASM fits none', () => {
    const config = parseConfig(CONSISID_CONFIG);
    const webgpu = Object.fromEntries(planFit(config, shape, 'webgpu', roomy).map((f) => [f.weights, f]));
    expect(webgpu.int4!.fits).toBe(true);
    expect(webgpu.int4!.heapBytes).toBeLessThan(2 * GIB);
    expect(webgpu.float16!.reasons).toEqual([expect.stringMatching(/shader-f16/)]);
    // the modulation of all 42 layers is one concatenated weight: 3036 MiB, over any 2 GiB binding
    expect(webgpu.float32!.reasons[0]).toMatch(/over the 2048 MiB .* modulation\/Concat_\d+ \(3036 MiB\)/);
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
    expect(planFit(config, wide, 'webgpu', tight)[0]!.reasons[0]).toMatch(/buffer\(s\) over the 0 MiB/);
  });
});
