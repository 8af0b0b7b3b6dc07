import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../graph/config.ts';
import { defaultSpec, specShape } from '../graph/input-spec.ts';
import { CONSISID_TINY_CONFIG } from '../models/consisid/demo-checkpoints.ts';
import { adapterCaps, CheckpointPlanner, type AdapterReport } from './checkpoint-planner.ts';
import { planFit } from './fit.ts';
import { WEBGPU_DEFAULT_LIMITS } from './plan.ts';
import { PRECISION_ERROR_VS_FLOAT32 } from './precision.ts';
import { SEGMENT_HEAP_BUDGET } from './segment-plan.ts';
import { heldBudgets, withStorage, type BrowserStorage } from './storage-fit.ts';
import { memoryBudget } from './memory-budget.ts';

const config = parseConfig({ ...CONSISID_TINY_CONFIG, num_layers: 3 });
const spec = { ...defaultSpec(config), vitTokens: 5 };
const report: AdapterReport = { limits: {}, shaderF16: false, subgroups: true, subgroupMinSize: 32 };
const caps = adapterCaps(report)!;

describe('the checkpoint planner: the plan the page asks for, in one call', () => {
  it('an adapter report takes the WebGPU defaults for the limits it does not give', () => {
    expect(caps.limits).toEqual(WEBGPU_DEFAULT_LIMITS);
    expect(adapterCaps({ ...report, limits: { maxBufferSize: 5 } })!.limits).toEqual({
      ...WEBGPU_DEFAULT_LIMITS,
      maxBufferSize: 5,
    });
    expect(adapterCaps(null)).toBeNull();
  });

  it('is planFit with the storage rule, the one memory budget, what each precision may hold and the measured errors', () => {
    const planner = new CheckpointPlanner();
    const storage = fc.record<BrowserStorage>({
      free: fc.integer({ min: 0, max: 2 ** 24 }),
      unusable: fc.option(fc.constant('private mode'), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom('webgpu' as const, 'wasm' as const),
        fc.option(fc.integer({ min: 2 ** 12, max: 2 ** 24 }), { nil: undefined }),
        fc.option(storage, { nil: undefined }),
        (device, heapBudget, s) => {
          const answer = planner.fit({ config, spec, device, adapter: report, heapBudget, storage: s });
          const adapter = device === 'webgpu' ? caps : null;
          const budget = memoryBudget(device, heapBudget);
          // the page's heap budget is WebGPU's; WASM holds converted weights within the segment default
          expect(answer.memoryBudget).toBe(
            device === 'webgpu' ? (heapBudget ?? SEGMENT_HEAP_BUDGET) : SEGMENT_HEAP_BUDGET,
          );
          const plain = planFit(config, specShape(config, spec), device, adapter, heapBudget);
          const fits = s ? withStorage(plain, s, budget) : plain;
          expect(answer).toEqual({
            fits,
            adapter,
            memoryBudget: budget,
            held: heldBudgets(fits, budget),
            errorVsFloat32: PRECISION_ERROR_VS_FLOAT32,
          });
        },
      ),
      { numRuns: 12 },
    );
  });

  it('checks the storage on a kept plan: the same request with other storage plans nothing again', () => {
    const planner = new CheckpointPlanner(1);
    const req = { config, spec, device: 'webgpu' as const, adapter: report };
    const first = planner.fit(req).fits;
    const again = planner.fit({ ...req, storage: { free: 2 ** 40, unusable: null } }).fits;
    // with room for everything the storage rule changes nothing: the very fits kept come back
    again.forEach((f, i) => expect(f).toBe(first[i]));
    // one plan kept: another request's plan replaces it, and this one is planned again
    planner.fit({ ...req, device: 'wasm' });
    const replanned = planner.fit(req).fits;
    expect(replanned[0]).not.toBe(first[0]);
    expect(replanned).toEqual(first);
  });

  it('refuses a config no device of this browser fits at the size a run starts with, naming where it looked', () => {
    const planner = new CheckpointPlanner();
    expect(planner.refusal(config, report)).toBeNull();
    expect(planner.refusal(config, null)).toBeNull();
    const tight = { ...report, limits: { maxBufferSize: 16, maxStorageBufferBindingSize: 16 } };
    const huge = parseConfig({
      ...CONSISID_TINY_CONFIG,
      num_layers: 1,
      num_attention_heads: 64,
      attention_head_dim: 1024,
    });
    const s = defaultSpec(huge);
    expect(planner.refusal(huge, tight)).toBe(
      `No weight precision of this checkpoint fits this WebGPU adapter's limits or the 4 GiB WASM heap at ${s.frames} latent frames of ${s.height} x ${s.width}: nothing was downloaded.`,
    );
    expect(planner.refusal(huge, null)).toMatch(/^No weight precision of this checkpoint fits the 4 GiB WASM heap at /);
  });
});
