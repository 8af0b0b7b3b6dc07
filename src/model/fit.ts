// Whether a precision's plan fits the device it would run on, and why not: decided from the config
// and the adapter's limits before a byte of weights is downloaded. WebGPU tells a page no total GPU
// memory, so the GPU memory a session needs is reported and never checked against an invented limit.
import {
  bindingReason,
  gib,
  planPrecisions,
  WASM_HEAP_BYTES,
  wasmHeapReason,
  type PrecisionPlan,
  type WebGpuLimits,
} from './plan.ts';
import type { PlannedBuffer } from './onnx/graph-cost.ts';
import type { GraphShape } from './graph/transformer.ts';
import type { AttentionKernel } from './graph/attention.ts';
import { attentionKernelFor } from './runtime/webgpu-features.ts';
import type { ConsisIDConfig } from './config.ts';
import type { WeightPrecision } from './precision.ts';
import type { Device } from './runtime/types.ts';

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
  /** the most bytes the WASM heap holds at once (heapBytes) */
  heapBytes: number;
  largestBuffer: PlannedBuffer;
  fits: boolean;
  /** why not, one line per rule missed */
  reasons: string[];
}

const BLOCK = /^transformer_blocks[./](\d+)[./]/;

/**
 * The most bytes the WASM heap holds at once. On WASM the weights and every activation live there.
 * On WebGPU the weights only pass through it on their way to the GPU, one segment (a group of
 * blocks, each its own session) at a time: counted here as the largest block plus every weight
 * outside the blocks (embeddings, identity module, output head). The segment plan replaces this
 * one function when segments land.
 */
export function heapBytes(plan: PrecisionPlan): number {
  if (plan.device !== 'webgpu') return plan.weightBytes + plan.activationPeakBytes;
  const blocks = new Map<string, number>();
  let shared = 0;
  for (const w of plan.weightBuffers) {
    const block = BLOCK.exec(w.name)?.[1];
    if (block === undefined) shared += w.bytes;
    else blocks.set(block, (blocks.get(block) ?? 0) + w.bytes);
  }
  return shared + Math.max(0, ...blocks.values());
}

/** one precision's plan against the device it runs on (`adapter`: the WebGPU adapter's, for device webgpu) */
export function precisionFit(plan: PrecisionPlan, adapter: AdapterCaps | null): PrecisionFit {
  const reasons: string[] = [];
  const webgpu = plan.device === 'webgpu';
  if (webgpu && !adapter) reasons.push('WebGPU: no adapter');
  if (webgpu && adapter && plan.weights === 'float16' && !adapter.shaderF16)
    reasons.push('WebGPU: float16 needs the adapter feature shader-f16, which this adapter lacks');
  const binding = webgpu && adapter ? bindingReason(plan.buffers, adapter.limits) : null;
  if (binding) reasons.push(binding);
  const heap = heapBytes(plan);
  const heapReason = webgpu
    ? heap > WASM_HEAP_BYTES &&
      `WASM: ${gib(heap)} of weights pass through the heap at once on their way to the GPU, over its 4 GiB`
    : wasmHeapReason(plan);
  if (heapReason) reasons.push(heapReason);
  return {
    weights: plan.weights,
    device: plan.device,
    weightBytes: plan.weightBytes,
    activationPeakBytes: plan.activationPeakBytes,
    gpuBytes: webgpu ? plan.weightBytes + plan.activationPeakBytes : null,
    heapBytes: heap,
    largestBuffer: plan.largestBuffer,
    fits: reasons.length === 0,
    reasons,
  };
}

/** the attention kernel a plan on `device` builds: the one the adapter runs exactly (WebGPU), else fused */
export const planAttention = (device: Device, adapter: AdapterCaps | null): AttentionKernel =>
  device === 'webgpu' && adapter ? attentionKernelFor(adapter) : 'fused';

/** every precision of `config` at `shape` on `device`, as it fits (`adapter` for WebGPU) */
export const planFit = (
  config: ConsisIDConfig,
  shape: GraphShape,
  device: Device,
  adapter: AdapterCaps | null,
): PrecisionFit[] =>
  planPrecisions(config, shape, device, undefined, planAttention(device, adapter)).map((p) => precisionFit(p, adapter));
