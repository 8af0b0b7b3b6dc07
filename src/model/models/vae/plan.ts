// What a VAE decode needs, read off the graphs it runs: the weight bytes a session holds, and per
// batch graph (first batch, later batches; per tile size when tiling) the activation peak, the
// largest buffer and the FLOPs; then whether a browser holds it, untiled or tiled. Weights are laid
// out as a checkpoint would hold them and never read, so any size plans in seconds. A page's tile
// size is chosen from its device's limits and a memory budget (chooseVaeTiling).
import { formatBytes } from '../../plan/format-bytes.ts';
import { graphCost, valueShapes, type GraphCost } from '../../onnx/graph-cost.ts';
import type { GraphDef } from '../../onnx/onnx-proto.ts';
import {
  bindingReason,
  browserFit,
  costOptionsFor,
  plannedWeightSet,
  WEBGPU_DEFAULT_LIMITS,
  type BrowserFit,
  type WebGpuLimits,
} from '../../plan/plan.ts';
import type { SafetensorsDtype } from '../../io/safetensors/dtype.ts';
import type { WeightSet } from '../../io/safetensors/weight-set.ts';
import { frameBatches, type VaeConfig } from './config.ts';
import { cpuProcessBytes } from './cpu-memory.ts';
import { wasmPageBytes } from './wasm-page.ts';
import { batchSignature, buildDecoderGraph, type BatchShape } from './decoder-graph.ts';
import { decoderParameters } from './decoder-layout.ts';
import { lineUpSize, tileBoxes, tileGeometry, tiledDecode, type TileSize } from './tiling.ts';
import type { VaePrecision } from './precision.ts';

/** the decoder's parameters laid out in one (never read) safetensors file */
export const plannedVaeWeights = (config: VaeConfig, dtype: SafetensorsDtype = 'F32'): WeightSet =>
  plannedWeightSet(decoderParameters(config), dtype);

/** the weights a decoder of this precision holds, as a checkpoint converted for it would store them */
const weightsFor = (config: VaeConfig, precision: VaePrecision) =>
  plannedVaeWeights(config, precision === 'float16' ? 'F16' : 'F32');

/**
 * The Conv nodes' FLOPs (graph-cost counts products only), and the largest im2col buffer
 * onnxruntime's CPU Conv fills for one image (input channels x kernel x output pixels, float32),
 * which lives only while its node runs.
 */
export function convCost(g: GraphDef): { flops: number; im2colBytes: number } {
  const shapes = valueShapes(g);
  let flops = 0;
  let im2colBytes = 0;
  for (const n of g.nodes) {
    if (n.opType !== 'Conv') continue;
    const [, c, kh, kw] = shapes.get(n.inputs[1]!)!.dims as number[];
    const [batch, o, h, w] = shapes.get(n.outputs[0]!)!.dims as number[];
    flops += 2 * batch! * o! * h! * w! * c! * kh! * kw!;
    if (kh! * kw! > 1) im2colBytes = Math.max(im2colBytes, c! * kh! * kw! * h! * w! * 4);
  }
  return { flops, im2colBytes };
}

export interface BatchPlan {
  signature: string;
  flops: number;
  /** onnxruntime's CPU Conv scratch on top of the cpu activation peak */
  im2colBytes: number;
  /** how many runs of this graph the decode makes */
  runs: number;
  cpu: GraphCost;
  webgpu: GraphCost;
}

export interface VaeDecodePlan {
  precision: VaePrecision;
  tiled: boolean;
  tiles: number;
  /** what decode takes to run this plan */
  decode: { tile: boolean; tileSize?: TileSize };
  weightBytes: number;
  flops: number;
  /** the largest activation peak of any batch graph (cpu: with the im2col scratch / webgpu accounting) */
  activationPeakBytes: { cpu: number; webgpu: number };
  /** the peak RSS of a decode process on onnxruntime-node CPU holding one session (cpu-memory.ts) */
  cpuProcessBytes: number;
  batches: BatchPlan[];
  fit: BrowserFit;
}

/**
 * Planned at the precision: float16 weights at 2 bytes; float16 activations at 2 bytes on WebGPU,
 * which computes in float16, and at 4 on CPU and WASM, whose float16 nodes run as float32 kernels
 * between Casts (measured: the activations' memory of a float16 decode is float32's there).
 */
export interface VaePlanOptions {
  tile?: boolean;
  tileSize?: TileSize;
  /** default float32 */
  precision?: VaePrecision;
  /** the checkpoint's weights (default: planned at the precision) */
  weights?: WeightSet;
  limits?: WebGpuLimits;
}

/** the batch graphs a decode of latents (B, F, C, h, w) runs, with how often each runs */
function batchShapes(
  config: VaeConfig,
  dims: readonly number[],
  tile: boolean,
  tileSize?: TileSize,
): { shape: BatchShape; runs: number }[] {
  const [b, f] = [dims[0]!, dims[1]!];
  const plan = tiledDecode(config, dims, tile, tileSize);
  const shapes = new Map<string, { shape: BatchShape; runs: number }>();
  for (const box of plan.boxes.flat())
    for (const [k, [s, e]] of frameBatches(f).entries()) {
      const shape = {
        batch: b,
        frames: e - s,
        height: box.rows[1] - box.rows[0],
        width: box.cols[1] - box.cols[0],
        first: k === 0,
      };
      const key = batchSignature(shape);
      const seen = shapes.get(key);
      if (seen) seen.runs++;
      else shapes.set(key, { shape, runs: 1 });
    }
  return [...shapes.values()];
}

export function planVaeDecode(config: VaeConfig, dims: readonly number[], opts: VaePlanOptions = {}): VaeDecodePlan {
  const precision = opts.precision ?? 'float32';
  const weights = opts.weights ?? weightsFor(config, precision);
  const tile = opts.tile ?? false;
  const batches = batchShapes(config, dims, tile, opts.tileSize).map(({ shape, runs }): BatchPlan => {
    const graph = buildDecoderGraph(config, weights, shape, precision).model.graph;
    return {
      signature: batchSignature(shape),
      ...convCost(graph),
      runs,
      cpu: graphCost(graph, { float16AsFloat32: true }),
      webgpu: graphCost(graph, costOptionsFor('webgpu')),
    };
  });
  const worst = (pick: (b: BatchPlan) => GraphCost) =>
    batches.reduce((a, b) => (pick(b).activationPeakBytes > pick(a).activationPeakBytes ? b : a));
  const withScratch = batches.map((b) => ({
    ...b.cpu,
    activationPeakBytes: b.cpu.activationPeakBytes + b.im2colBytes,
  }));
  const cpu = withScratch.reduce((a, b) => (b.activationPeakBytes > a.activationPeakBytes ? b : a));
  const webgpu = worst((b) => b.webgpu).webgpu;
  return {
    precision,
    tiled: tile,
    tiles: tiledDecode(config, dims, tile, opts.tileSize).count,
    decode: tile && opts.tileSize ? { tile, tileSize: opts.tileSize } : { tile },
    weightBytes: batches[0]!.cpu.weightBytes,
    flops: batches.reduce((s, b) => s + b.runs * b.flops, 0),
    activationPeakBytes: { cpu: cpu.activationPeakBytes, webgpu: webgpu.activationPeakBytes },
    cpuProcessBytes: cpuProcessBytes(batches[0]!.cpu.weightBytes, cpu.activationPeakBytes),
    batches,
    fit: browserFit(webgpu, cpu, opts.limits ?? WEBGPU_DEFAULT_LIMITS),
  };
}

/** the memory a page (or a process: cpu) gives a decode on its device */
export interface VaeBudget {
  device: 'wasm' | 'webgpu' | 'cpu';
  /**
   * bytes one batch may take: on WASM the page's JS + WASM as the plan predicts it (wasmPageBytes);
   * on WebGPU the weights and activations in GPU buffers; on cpu the process's peak RSS on
   * onnxruntime-node (cpuProcessBytes)
   */
  bytes: number;
  /** on WASM, the threads onnxruntime-web runs (default 1): more than one adds to the page (wasmPageBytes) */
  threads?: number;
}

/**
 * What the preview page gives a decode: on WASM its 1.5 GB JS + WASM target less what the page's
 * own JS keeps (latents, decoded tiles, the clip); on WebGPU GPU buffers.
 */
export const VAE_PAGE_BUDGET: Record<'wasm' | 'webgpu', VaeBudget> = {
  wasm: { device: 'wasm', bytes: 1.4e9 },
  webgpu: { device: 'webgpu', bytes: 2 * 2 ** 30 },
};

export interface VaeTilingChoice extends VaeDecodePlan {
  budget: VaeBudget;
  /** bytes a batch needs on the budget's device (the largest batch graph), as VaeBudget counts them */
  needBytes: number;
  /** why the plan misses the budget or the adapter's limits: empty when it fits */
  misses: string[];
  /**
   * sessions the decoder may hold at once (VaeDecoderOptions.maxSessions): each holds the weights and
   * the need counts them once, so a tiled decode makes its first-batch and later-batch sessions in turn
   */
  maxSessions: number;
}

interface Need {
  bytes: number;
  largestBuffer: number;
}

function needOf(plan: VaeDecodePlan, budget: VaeBudget): Need {
  const bytes =
    budget.device === 'wasm'
      ? wasmPageBytes(plan.weightBytes, plan.activationPeakBytes.cpu, budget.threads)
      : budget.device === 'cpu'
        ? plan.cpuProcessBytes
        : plan.weightBytes + plan.activationPeakBytes.webgpu;
  const largestBuffer = Math.max(...plan.batches.flatMap((b) => b.webgpu.buffers.map((x) => x.bytes)));
  return { bytes, largestBuffer };
}

function misses(plan: VaeDecodePlan, budget: VaeBudget, limits: WebGpuLimits): string[] {
  const need = needOf(plan, budget);
  const out: string[] = [];
  if (need.bytes > budget.bytes)
    out.push(
      `${budget.device}${(budget.threads ?? 1) > 1 ? ` at ${budget.threads} threads` : ''}: weights and one batch ${formatBytes(need.bytes)} exceed the budget's ${formatBytes(budget.bytes)}`,
    );
  if (budget.device === 'webgpu') {
    const binding = bindingReason(
      plan.batches.flatMap((b) => b.webgpu.buffers),
      limits,
    );
    if (binding) out.push(binding);
  }
  return out;
}

/** the tile sizes that line up, as (tile latents, decoded latents over all tiles), least work first */
function candidates(config: VaeConfig, dims: readonly number[]): { size: TileSize; tile: [number, number] }[] {
  const [h, w] = [dims[3]!, dims[4]!];
  const out: { size: TileSize; tile: [number, number]; work: number; count: number }[] = [];
  for (let a = 1; a <= Math.ceil(h / 5) + 1; a++)
    for (let b = 1; b <= Math.ceil(w / 4) + 1; b++) {
      if (6 * a >= h && 5 * b >= w) continue; // a tile holds the latents: no tiling
      const size = lineUpSize(config, a, b);
      const boxes = tileBoxes(tileGeometry(config, size), h, w).flat();
      const work = boxes.reduce((s, x) => s + (x.rows[1] - x.rows[0]) * (x.cols[1] - x.cols[0]), 0);
      out.push({ size, tile: [Math.min(6 * a, h), Math.min(5 * b, w)], work, count: boxes.length });
    }
  return out.sort((x, y) => x.work - y.work || x.count - y.count);
}

/**
 * Untiled when one batch of the whole latents fits the budget (and, on WebGPU, every buffer one
 * binding); else the tile size that lines up and decodes the fewest latents (overlaps counted) whose
 * largest tile fits. A tile's need grows with its latents: a line through two small tiles' needs
 * skips sizes far over the budget, and each size tried is planned from its graphs. When no tile
 * fits, the smallest, with its misses.
 */
export function chooseVaeTiling(
  config: VaeConfig,
  dims: readonly number[],
  limits: WebGpuLimits = WEBGPU_DEFAULT_LIMITS,
  budget: VaeBudget = VAE_PAGE_BUDGET.wasm,
  precision: VaePrecision = 'float32',
): VaeTilingChoice {
  const weights = weightsFor(config, precision);
  const choice = (plan: VaeDecodePlan): VaeTilingChoice => ({
    ...plan,
    budget,
    needBytes: needOf(plan, budget).bytes,
    misses: misses(plan, budget, limits),
    maxSessions: 1,
  });
  const whole = choice(planVaeDecode(config, dims, { weights, limits, precision }));
  if (whole.misses.length === 0) return whole;
  const [b, f, c, h, w] = dims as [number, number, number, number, number];
  const tilePlans = new Map<string, VaeTilingChoice>();
  const tileOf = ([th, tw]: [number, number]) => {
    const key = `${th}x${tw}`;
    if (!tilePlans.has(key))
      tilePlans.set(key, choice(planVaeDecode(config, [b, f, c, th, tw], { weights, limits, precision })));
    return tilePlans.get(key)!;
  };
  const small = [tileOf([Math.min(6, h), Math.min(5, w)]), tileOf([Math.min(12, h), Math.min(10, w)])];
  const areas = [Math.min(6, h) * Math.min(5, w), Math.min(12, h) * Math.min(10, w)];
  const slope = areas[1] === areas[0] ? 0 : (small[1]!.needBytes - small[0]!.needBytes) / (areas[1]! - areas[0]!);
  const estimate = (th: number, tw: number) => small[0]!.needBytes + slope * (th * tw - areas[0]!);
  const all = candidates(config, dims);
  for (const { size, tile } of all) {
    if (estimate(...tile) > 1.05 * budget.bytes || tileOf(tile).misses.length) continue;
    return choice(planVaeDecode(config, dims, { tile: true, tileSize: size, weights, limits, precision }));
  }
  const least = all.find((x) => x.tile[0] <= 6 && x.tile[1] <= 5) ?? all.at(-1);
  return least
    ? choice(planVaeDecode(config, dims, { tile: true, tileSize: least.size, weights, limits, precision }))
    : whole;
}
