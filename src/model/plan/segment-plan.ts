// Where to split the transformer into segments (sessions of consecutive blocks), from what the
// graphs of the candidate segments cost: each segment's weights pass through JavaScript / the WASM
// heap at once when its session is made, so they stay within a heap budget, and on WebGPU no
// weight buffer of a segment may be over what the adapter binds. No weight is read.
import type { ConsisIDConfig } from '../graph/config.ts';
import { buildTransformerBlocks, type BlockRange, type GraphShape } from '../graph/transformer.ts';
import { evenSegments } from '../graph/segments.ts';
import { graphCost, type GraphCost, type PlannedBuffer } from '../onnx/graph-cost.ts';
import { formatBytes } from './format-bytes.ts';
import { costOptionsFor, plannedWeights, WASM_HEAP_BYTES, WEBGPU_DEFAULT_LIMITS, type WebGpuLimits } from './plan.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from './precision.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import type { Device } from '../runtime/types.ts';
import type { AttentionKernel } from '../graph/context.ts';

/**
 * Weight bytes one segment may pass through the page's memory at once: the page's JavaScript +
 * WASM peak stays under 1.5 GB whatever the model size, and the rest of that is the page itself,
 * the heap's own use (the graph, CPU-side tensors) and the download / conversion buffers.
 */
export const SEGMENT_HEAP_BUDGET = 2 ** 30;

/** how many segments: as few as fit ('auto'), or this many of equal block counts */
export type SegmentChoice = 'auto' | number;

export interface SegmentPlanOptions {
  device: Device;
  /** default float32 */
  weights?: WeightPrecision;
  segments?: SegmentChoice;
  /** the WebGPU adapter's limits (default: the spec's); not used on other devices */
  limits?: WebGpuLimits;
  /** the most weight bytes of one segment (default SEGMENT_HEAP_BUDGET) */
  heapBudget?: number;
  /** the weights as a checkpoint lays them out (default: float32, as `plannedWeights`) */
  weightSet?: WeightSet;
  /** how the graphs write attention (default fused; decomposed attention holds its scores in a buffer) */
  attention?: AttentionKernel;
  /** the ranges' costs, shared with a caller that wants other ranges of the same graphs (the fit's whole graph) */
  costs?: RangeCosts;
}

/** what the graph of a range of blocks costs, each range built once; `known`: built already */
export type RangeCosts = ((r: BlockRange) => GraphCost) & { known(r: BlockRange): boolean };

/** the costs of ranges of blocks at one precision on one device; the whole transformer is the range 0..num_layers */
export function rangeCosts(
  config: ConsisIDConfig,
  shape: GraphShape,
  opts: Pick<SegmentPlanOptions, 'device' | 'weights' | 'weightSet' | 'attention'>,
): RangeCosts {
  const weights = opts.weights ?? 'float32';
  const weightSet = opts.weightSet ?? plannedWeights(config);
  const buildOpts = {
    dtype: computeDtypeFor(weights, undefined),
    quantization: quantizationFor(weights, opts.device),
    attention: opts.attention ?? 'fused',
  };
  const costs = new Map<string, GraphCost>();
  const key = (r: BlockRange) => `${r.from}-${r.to}`;
  const cost = (r: BlockRange): GraphCost => {
    let c = costs.get(key(r));
    if (!c) {
      const built = buildTransformerBlocks(config, weightSet, shape, buildOpts, r);
      c = graphCost(built.model.graph, costOptionsFor(opts.device));
      costs.set(key(r), c);
    }
    return c;
  };
  return Object.assign(cost, { known: (r: BlockRange) => costs.has(key(r)) });
}

export interface PlannedSegment extends BlockRange {
  /** bytes of the weights its session holds */
  weightBytes: number;
  /** its largest weight buffer */
  largestWeight: PlannedBuffer;
  activationPeakBytes: number;
  /** on WebGPU, what the EP's buffer cache makes for its run-time tensors (graph-cost.ts) */
  bufferDemand: Map<number, number> | null;
  flops: number;
}

export interface SegmentPlan {
  segments: PlannedSegment[];
  device: Device;
  weights: WeightPrecision;
  heapBudget: number;
  /** the largest buffer the adapter binds (WebGPU), else null */
  bufferLimit: number | null;
}

export class SegmentPlanError extends Error {
  override name = 'SegmentPlanError';
}

const describeBlocks = (c: ConsisIDConfig, r: BlockRange): string => {
  const blocks = r.to - r.from === 1 ? `block ${r.from}` : `blocks ${r.from}-${r.to - 1}`;
  const extra = [r.from === 0 ? 'the embeddings' : '', r.to === c.num_layers ? 'the output head' : ''].filter(Boolean);
  return extra.length ? `${blocks} with ${extra.join(' and ')}` : blocks;
};

export function planSegments(config: ConsisIDConfig, shape: GraphShape, opts: SegmentPlanOptions): SegmentPlan {
  const weights = opts.weights ?? 'float32';
  const heapBudget = opts.heapBudget ?? SEGMENT_HEAP_BUDGET;
  const limits = opts.limits ?? WEBGPU_DEFAULT_LIMITS;
  const bufferLimit =
    opts.device === 'webgpu' ? Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize) : null;
  const cost = opts.costs ?? rangeCosts(config, shape, { ...opts, weights });
  const misfits = (r: BlockRange): string[] => {
    const c = cost(r);
    const reasons: string[] = [];
    if (c.weightBytes > heapBudget)
      reasons.push(
        `its weights (${formatBytes(c.weightBytes)}) are over the ${formatBytes(heapBudget)} heap budget of a segment`,
      );
    if (bufferLimit === null) return reasons;
    const over = `over the ${formatBytes(bufferLimit)} one WebGPU buffer may hold (maxBufferSize ${formatBytes(limits.maxBufferSize)}, maxStorageBufferBindingSize ${formatBytes(limits.maxStorageBufferBindingSize)})`;
    const largest = c.weightBuffers[0];
    if (largest && largest.bytes > bufferLimit)
      reasons.push(`its weight ${largest.name} (${formatBytes(largest.bytes)}) is ${over}`);
    // a run-time buffer of a product over blocks (the stacked modulation) shrinks with the segment
    const held = new Set(c.weightBuffers.map((b) => b.name));
    const run = c.buffers.find((b) => !held.has(b.name));
    if (run && run.bytes > bufferLimit)
      reasons.push(`its run-time buffer ${run.name} (${formatBytes(run.bytes)}) is ${over}`);
    return reasons;
  };
  const refuse = (r: BlockRange, reasons: string[]): never => {
    throw new SegmentPlanError(
      `${weights} weights on ${opts.device} do not fit in segments: ${describeBlocks(config, r)} ${r.to - r.from === 1 ? 'alone' : 'as one segment'}: ${reasons.join('; ')}`,
    );
  };
  const choice = opts.segments ?? 'auto';
  let ranges: BlockRange[];
  if (choice === 'auto') ranges = autoSegments(config.num_layers, misfits, refuse, cost.known);
  else {
    ranges = evenSegments(config.num_layers, choice);
    for (const r of ranges) {
      const reasons = misfits(r);
      if (reasons.length) refuse(r, reasons);
    }
  }
  if (opts.device === 'wasm') {
    // the WASM provider keeps every segment's weights in its heap, with the activations of the one running
    const held = ranges.reduce((s, r) => s + cost(r).weightBytes, 0);
    const peak = Math.max(...ranges.map((r) => cost(r).activationPeakBytes));
    if (held + peak > WASM_HEAP_BYTES)
      throw new SegmentPlanError(
        `${weights} weights on wasm do not fit: the WASM heap keeps every segment's weights (${formatBytes(held)}) and the activations (${formatBytes(peak)}), over its 4 GiB; segments help only on WebGPU`,
      );
  }
  const segments = ranges.map((r): PlannedSegment => {
    const c = cost(r);
    return {
      ...r,
      weightBytes: c.weightBytes,
      largestWeight: c.weightBuffers[0] ?? { name: '', bytes: 0 },
      activationPeakBytes: c.activationPeakBytes,
      bufferDemand: c.bufferDemand,
      flops: c.flops,
    };
  });
  return { segments, device: opts.device, weights, heapBudget, bufferLimit };
}

/**
 * As few segments as fit, each as long as fits (a segment's weights only grow with its blocks).
 * Each range is a graph built and costed, so few are tried: the whole transformer when it was
 * built already (the fit's figures) and fits; else each segment from the length of the one before
 * (its blocks are alike; its first block alone only when that does not fit), one block longer to
 * see it ends there, growing by doubling when it does not, and a binary search between the longest
 * that fits and the shortest that does not.
 */
function autoSegments(
  layers: number,
  misfits: (r: BlockRange) => string[],
  refuse: (r: BlockRange, reasons: string[]) => never,
  known: (r: BlockRange) => boolean,
): BlockRange[] {
  const whole = { from: 0, to: layers };
  if (known(whole) && misfits(whole).length === 0) return [whole];
  const ranges: BlockRange[] = [];
  let guess = 1;
  for (let from = 0; from < layers;) {
    const fits = (to: number) => misfits({ from, to }).length === 0;
    let good = from;
    let bad = layers + 1;
    const first = Math.min(layers, from + guess);
    if (first > from + 1) {
      if (fits(first)) good = first;
      else bad = first;
    }
    // a first block that does not fit alone is refused with its reasons (one that fits longer fits alone)
    if (good === from) {
      const alone = misfits({ from, to: from + 1 });
      if (alone.length) refuse({ from, to: from + 1 }, alone);
      good = from + 1;
    }
    for (let step = 1; good < layers && bad > layers; step *= 2) {
      const to = Math.min(layers, good + step);
      if (fits(to)) good = to;
      else bad = to;
    }
    while (bad - good > 1) {
      const mid = (good + bad) >> 1;
      if (fits(mid)) good = mid;
      else bad = mid;
    }
    ranges.push({ from, to: good });
    guess = good - from;
    from = good;
  }
  return ranges;
}
