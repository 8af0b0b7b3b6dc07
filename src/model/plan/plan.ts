// What a config needs, from the graph the model builds for it: weight bytes per precision,
// activation peak and FLOPs of one forward, and whether that fits a browser's limits. Weights are
// laid out as a checkpoint would hold them and never read, so any size can be planned.
import type { ConsisIDConfig } from '../graph/config.ts';
import { expectedParameters } from '../graph/parameters.ts';
import { buildConsisIDGraph, type GraphShape } from '../graph/transformer.ts';
import type { AttentionKernel } from '../graph/context.ts';
import { graphCost, type CostOptions, type GraphCost, type PlannedBuffer } from '../onnx/graph-cost.ts';
import { WEBGPU_BUFFER_CACHE } from '../onnx/ep-buffers.ts';
import { DTYPE_BYTES, type SafetensorsDtype } from '../io/safetensors/dtype.ts';
import type { WeightEntry, WeightSet } from '../io/safetensors/weight-set.ts';
import { formatBytes } from './format-bytes.ts';
import { computeDtypeFor, quantizationFor, WEIGHT_PRECISIONS, type WeightPrecision } from './precision.ts';
import type { Device } from '../runtime/types.ts';

/** the parameters of a config laid out in one (never read) safetensors file */
export const plannedWeights = (config: ConsisIDConfig, dtype: SafetensorsDtype = 'F32'): WeightSet =>
  plannedWeightSet(expectedParameters(config), dtype);

/** parameters (name -> shape) laid out one after another in one (never read) safetensors file */
export function plannedWeightSet(parameters: ReadonlyMap<string, number[]>, dtype: SafetensorsDtype): WeightSet {
  const out = new Map<string, WeightEntry>();
  let offset = 0;
  for (const [name, shape] of parameters) {
    const length = shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[dtype];
    out.set(name, { name, dtype, shape, offset, length, file: 'planned', fileName: 'planned.safetensors' });
    offset += length;
  }
  return out;
}

/** how a graph on `device` is costed: on WebGPU, flash attention and what the EP's buffer cache holds */
export const costOptionsFor = (device: Device): CostOptions =>
  device === 'webgpu' ? { flashAttention: true, bufferCache: WEBGPU_BUFFER_CACHE } : {};

export interface PrecisionPlan extends GraphCost {
  weights: WeightPrecision;
  device: Device;
}

/**
 * one row per precision, with the ops `device` runs (WebGPU's differ for int8/int4) and its
 * attention kernel (decomposed attention holds the (B, H, S, L) probabilities as tensors)
 */
export function planPrecisions(
  config: ConsisIDConfig,
  shape: GraphShape,
  device: Device,
  weights: WeightSet = plannedWeights(config),
  attention: AttentionKernel = 'fused',
): PrecisionPlan[] {
  return WEIGHT_PRECISIONS.map((precision) => {
    const built = buildConsisIDGraph(config, weights, shape, {
      dtype: computeDtypeFor(precision, undefined),
      quantization: quantizationFor(precision, device),
      attention,
    });
    return { weights: precision, device, ...graphCost(built.model.graph, costOptionsFor(device)) };
  });
}

export interface WebGpuLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

/** what every WebGPU adapter gives (the spec's default limits); adapters may allow more when asked */
export const WEBGPU_DEFAULT_LIMITS: WebGpuLimits = {
  maxBufferSize: 256 * 2 ** 20,
  maxStorageBufferBindingSize: 128 * 2 ** 20,
};
/** the limits an adapter reports, the spec's defaults for the ones it does not */
export const withDefaultLimits = (limits: Partial<WebGpuLimits>): WebGpuLimits => ({
  maxBufferSize: limits.maxBufferSize ?? WEBGPU_DEFAULT_LIMITS.maxBufferSize,
  maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize ?? WEBGPU_DEFAULT_LIMITS.maxStorageBufferBindingSize,
});

/** the bytes one storage binding may hold: a buffer is bound whole, and no buffer may exceed maxBufferSize */
export const bindingLimit = (limits: WebGpuLimits): number =>
  Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);

/** buffers one binding cannot hold, largest first (segments cannot split a buffer: this rule stays per buffer) */
export const buffersOverBinding = (buffers: readonly PlannedBuffer[], limits: WebGpuLimits): PlannedBuffer[] =>
  buffers.filter((b) => b.bytes > bindingLimit(limits));

/** 32-bit WebAssembly memory: onnxruntime-web's WASM heap holds the weights and every activation */
export const WASM_HEAP_BYTES = 4 * 2 ** 30;

export interface BrowserFit {
  webgpu: boolean;
  wasm: boolean;
  /** why not, one line per limit missed */
  reasons: string[];
}

/** why a WebGPU session of these buffers cannot be made, or null */
export function bindingReason(buffers: readonly PlannedBuffer[], limits: WebGpuLimits): string | null {
  const over = buffersOverBinding(buffers, limits);
  return over.length
    ? `WebGPU: ${over.length} buffer(s) over the ${formatBytes(bindingLimit(limits))} one storage binding may hold, the largest ${over[0]!.name} (${formatBytes(over[0]!.bytes)})`
    : null;
}

/** why a WASM session (weights and activations in the heap) does not fit, or null */
export const wasmHeapReason = (wasm: GraphCost): string | null =>
  wasm.weightBytes + wasm.activationPeakBytes > WASM_HEAP_BYTES
    ? `WASM: weights ${formatBytes(wasm.weightBytes)} + activations ${formatBytes(wasm.activationPeakBytes)} exceed the 4 GiB heap`
    : null;

export function browserFit(
  webgpu: GraphCost,
  wasm: GraphCost,
  limits: WebGpuLimits = WEBGPU_DEFAULT_LIMITS,
): BrowserFit {
  const binding = bindingReason(webgpu.buffers, limits);
  const heap = wasmHeapReason(wasm);
  return { webgpu: !binding, wasm: !heap, reasons: [binding, heap].filter((r) => r !== null) };
}
