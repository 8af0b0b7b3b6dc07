// The plan of a checkpoint as the page asks for it: every precision of a config at a spec's size on a
// device, as it fits the adapter (the WebGPU spec's defaults for the limits it does not report) and
// the browser's storage, with the memory budget converted weights may hold and each precision's
// measured error. A full-size config takes seconds to plan: the planner keeps its last few plans and
// checks the storage, which changes with every download, on a kept one.
import type { ConsisIDConfig } from '../graph/config.ts';
import { defaultSpec, specShape, type InputSpec } from '../graph/input-spec.ts';
import type { Device } from '../runtime/types.ts';
import { planFit, type AdapterCaps, type PrecisionFit } from './fit.ts';
import { memoryBudget, type MemoryBudget } from './memory-budget.ts';
import { withDefaultLimits, type WebGpuLimits } from './plan.ts';
import { PRECISION_ERROR_VS_FLOAT32, type WeightPrecision } from './precision.ts';
import { heldBudgets, withStorage, type BrowserStorage } from './storage-fit.ts';

/** the adapter as the page's probe found it: the limits it reports (the planner takes the spec's defaults for the others) */
export type AdapterReport = Omit<AdapterCaps, 'limits'> & { limits: Partial<WebGpuLimits> };

export interface FitRequest {
  config: ConsisIDConfig;
  spec: InputSpec;
  device: Device;
  /** the WebGPU adapter's limits and features (device webgpu) */
  adapter: AdapterReport | null;
  /** the bytes one segment may pass through the heap (default SEGMENT_HEAP_BUDGET) */
  heapBudget?: number;
  /** what the browser can store: converted weights need room there or within the memory budget; absent: not checked */
  storage?: BrowserStorage;
}

export interface FitAnswer {
  fits: PrecisionFit[];
  /** the adapter the plan was checked against (the spec's defaults for the limits it does not report) */
  adapter: AdapterCaps | null;
  /** the converted bytes memory may hold where the cache cannot store them */
  memoryBudget: MemoryBudget;
  /** per precision, that budget less the largest segment's weights passing through the heap beside them */
  held: Partial<Record<WeightPrecision, number>>;
  /** per precision, the most it was measured off float32 (PRECISION_ERROR_VS_FLOAT32) */
  errorVsFloat32: Record<WeightPrecision, number>;
}

/** the adapter a plan is checked against: the report's limits, the spec's defaults for the others */
export const adapterCaps = (report: AdapterReport | null): AdapterCaps | null =>
  report && { ...report, limits: withDefaultLimits(report.limits) };

export class CheckpointPlanner {
  readonly #plans = new Map<string, PrecisionFit[]>();

  /** `keep`: the plans kept (the refusal check, the fit table and the precision default ask for the same one) */
  constructor(private readonly keep = 8) {}

  /** every precision as it fits the request's device, adapter and storage */
  fit(req: FitRequest): FitAnswer {
    const budget = memoryBudget(req.device, req.heapBudget);
    const adapter = req.device === 'webgpu' ? adapterCaps(req.adapter) : null;
    const plan = this.#kept(req.config, req.spec, req.device, adapter, req.heapBudget);
    const fits = req.storage ? withStorage(plan, req.storage, budget) : plan;
    const held = heldBudgets(fits, budget);
    return { fits, adapter, memoryBudget: budget, held, errorVsFloat32: PRECISION_ERROR_VS_FLOAT32 };
  }

  /** why no precision of `config` fits any device this browser has at the size a run starts with; null when one does */
  refusal(config: ConsisIDConfig, report: AdapterReport | null): string | null {
    const spec = defaultSpec(config);
    const adapter = adapterCaps(report);
    const devices: Device[] = adapter ? ['webgpu', 'wasm'] : ['wasm'];
    for (const device of devices)
      if (this.#kept(config, spec, device, device === 'webgpu' ? adapter : null).some((f) => f.fits)) return null;
    const where = adapter ? "this WebGPU adapter's limits or the 4 GiB WASM heap" : 'the 4 GiB WASM heap';
    return `No weight precision of this checkpoint fits ${where} at ${spec.frames} latent frames of ${spec.height} x ${spec.width}: nothing was downloaded.`;
  }

  #kept(
    config: ConsisIDConfig,
    spec: InputSpec,
    device: Device,
    adapter: AdapterCaps | null,
    heapBudget?: number,
  ): PrecisionFit[] {
    const shape = specShape(config, spec);
    const key = JSON.stringify([config, shape, device, adapter, heapBudget ?? null]);
    let plan = this.#plans.get(key);
    if (!plan) {
      plan = planFit(config, shape, device, adapter, heapBudget);
      this.#plans.set(key, plan);
      if (this.#plans.size > this.keep) this.#plans.delete(this.#plans.keys().next().value!);
    }
    return plan;
  }
}
