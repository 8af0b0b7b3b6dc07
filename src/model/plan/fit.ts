// Whether a precision's plan fits the device it would run on, and why not: decided from the config
// and the adapter's limits before a byte of weights is downloaded. WebGPU tells a page no total GPU
// memory, so the GPU memory a session needs is reported and never checked against an invented limit.
// On WebGPU what passes through the heap is the segment plan's (planSegments), the one the model runs;
// a precision's whole graph and its segments are ranges of blocks costed once each (rangeCosts).
import { bindingReason, wasmHeapReason, type PrecisionPlan, type WebGpuLimits } from './plan.ts';
import { planSegments, rangeCosts, SegmentPlanError, type RangeCosts, type SegmentPlan } from './segment-plan.ts';
import type { PlannedBuffer } from '../onnx/graph-cost.ts';
import { heldBytes } from '../onnx/ep-buffers.ts';
import type { GraphShape } from '../graph/transformer.ts';
import type { AttentionKernel } from '../graph/context.ts';
import { attentionKernelFor } from '../runtime/webgpu-features.ts';
import type { ConsisIDConfig } from '../graph/config.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from './precision.ts';
import type { Device } from '../runtime/types.ts';

/** what the page reads off `navigator.gpu.requestAdapter()` */
export interface AdapterCaps {
  limits: WebGpuLimits;
  shaderF16: boolean;
  subgroups: boolean;
  /** adapter.info.subgroupMinSize: narrow subgroups get attention decomposed (attentionKernelFor) */
  subgroupMinSize: number | null;
}

export interface PrecisionFit {
  weights: WeightPrecision;
  device: Device;
  weightBytes: number;
  activationPeakBytes: number;
  /** WebGPU: weights + activation peak, the GPU memory the session needs (not checkable); null on WASM */
  gpuBytes: number | null;
  /** the most bytes the WASM heap holds at once: on WebGPU the largest segment's weights (0 when none fits), on WASM everything */
  heapBytes: number;
  /** WebGPU: the segments (sessions of consecutive blocks) the weights pass through the heap in; null on WASM or when none fit */
  segments: number | null;
  largestBuffer: PlannedBuffer;
  fits: boolean;
  /** why not, one line per rule missed */
  reasons: string[];
}

/** what the segment plan (planSegments, the one rule for what passes through the heap on WebGPU) gave */
export type SegmentOutcome = { plan: SegmentPlan } | { refused: string };

/** the segment plan of `weights` on this adapter: as few segments as fit its limits and the heap budget, or why none do */
export function segmentOutcome(
  config: ConsisIDConfig,
  shape: GraphShape,
  weights: WeightPrecision,
  adapter: AdapterCaps,
  heapBudget?: number,
  costs?: RangeCosts,
): SegmentOutcome {
  try {
    const attention = attentionKernelFor(adapter);
    return {
      plan: planSegments(config, shape, {
        device: 'webgpu',
        weights,
        limits: adapter.limits,
        heapBudget,
        attention,
        costs,
      }),
    };
  } catch (e) {
    if (e instanceof SegmentPlanError) return { refused: e.message };
    throw e;
  }
}

/**
 * One precision's plan against the device it runs on (`adapter`: the WebGPU adapter's, for device
 * webgpu). On WebGPU the weights pass through the heap one segment at a time: `segments`, the
 * segment plan, decides the heap rule there (null: not planned, refused for want of an adapter).
 */
export function precisionFit(
  plan: PrecisionPlan,
  adapter: AdapterCaps | null,
  segments: SegmentOutcome | null = null,
): PrecisionFit {
  const reasons: string[] = [];
  const webgpu = plan.device === 'webgpu';
  if (webgpu && !adapter) reasons.push('WebGPU: no adapter');
  if (webgpu && adapter && plan.weights === 'float16' && !adapter.shaderF16)
    reasons.push('WebGPU: float16 needs the adapter feature shader-f16, which this adapter lacks');
  const planned = segments && 'plan' in segments ? segments.plan.segments : null;
  // where segments were planned, the plan checked every segment's buffers (weights and run-time) against the binding
  const binding = webgpu && adapter && !planned ? bindingReason(plan.buffers, adapter.limits) : null;
  if (binding) reasons.push(binding);
  if (webgpu && segments && 'refused' in segments) reasons.push(`WebGPU: ${segments.refused}`);
  const heapReason = !webgpu && wasmHeapReason(plan);
  // the segments run one after another on one device, their sessions sharing the EP's buffer cache
  const demands = planned?.map((p) => p.bufferDemand);
  const activationPeakBytes =
    demands?.length && demands.every((d) => d !== null) ? heldBytes(demands) : plan.activationPeakBytes;
  if (heapReason) reasons.push(heapReason);
  return {
    weights: plan.weights,
    device: plan.device,
    weightBytes: plan.weightBytes,
    activationPeakBytes,
    gpuBytes: webgpu ? plan.weightBytes + activationPeakBytes : null,
    heapBytes: webgpu
      ? Math.max(0, ...(planned ?? []).map((p) => p.weightBytes))
      : plan.weightBytes + plan.activationPeakBytes,
    segments: webgpu && planned ? planned.length : null,
    largestBuffer: plan.largestBuffer,
    fits: reasons.length === 0,
    reasons,
  };
}

/** the attention kernel a plan on `device` builds: the one the adapter runs exactly (WebGPU), else fused */
export const planAttention = (device: Device, adapter: AdapterCaps | null): AttentionKernel =>
  device === 'webgpu' && adapter ? attentionKernelFor(adapter) : 'fused';

/**
 * Every precision of `config` at `shape` on `device`, as it fits (`adapter` for WebGPU; `heapBudget`:
 * one segment's, as planSegments). One pass per precision: the whole graph is the range of all
 * blocks among the segment plan's ranges, each range built and costed once.
 */
export function planFit(
  config: ConsisIDConfig,
  shape: GraphShape,
  device: Device,
  adapter: AdapterCaps | null,
  heapBudget?: number,
): PrecisionFit[] {
  return WEIGHT_PRECISIONS.map((weights) => {
    const costs = rangeCosts(config, shape, { device, weights, attention: planAttention(device, adapter) });
    const plan: PrecisionPlan = { weights, device, ...costs({ from: 0, to: config.num_layers }) };
    const segments =
      device === 'webgpu' && adapter ? segmentOutcome(config, shape, weights, adapter, heapBudget, costs) : null;
    return precisionFit(plan, adapter, segments);
  });
}
