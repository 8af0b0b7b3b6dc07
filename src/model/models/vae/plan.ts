// What a VAE decode needs, read off the graphs it runs: the weight bytes a session holds, and per
// batch graph (first batch, later batches; per tile size when tiling) the activation peak, the
// largest buffer and the FLOPs; then whether a browser holds it, untiled or tiled. Weights are laid
// out as a checkpoint would hold them and never read, so any size plans in seconds.
import { graphCost, valueShapes, type GraphCost } from '../../onnx/graph-cost.ts';
import type { GraphDef } from '../../onnx/onnx-proto.ts';
import {
  browserFit,
  costOptionsFor,
  WEBGPU_DEFAULT_LIMITS,
  type BrowserFit,
  type WebGpuLimits,
} from '../../plan/plan.ts';
import { DTYPE_BYTES, type SafetensorsDtype } from '../../io/safetensors/dtype.ts';
import type { WeightEntry, WeightSet } from '../../io/safetensors/weight-set.ts';
import { frameBatches, type VaeConfig } from './config.ts';
import { batchSignature, buildDecoderGraph, type BatchShape } from './decoder-graph.ts';
import { decoderParameters } from './decoder-layout.ts';
import { tiledDecode } from './tiling.ts';

/** the decoder's parameters laid out in one (never read) safetensors file */
export function plannedVaeWeights(config: VaeConfig, dtype: SafetensorsDtype = 'F32'): WeightSet {
  const out = new Map<string, WeightEntry>();
  let offset = 0;
  for (const [name, shape] of decoderParameters(config)) {
    const length = shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[dtype];
    out.set(name, { name, dtype, shape, offset, length, file: 'planned', fileName: 'planned.safetensors' });
    offset += length;
  }
  return out;
}

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
  tiled: boolean;
  tiles: number;
  weightBytes: number;
  flops: number;
  /** the largest activation peak of any batch graph (cpu: with the im2col scratch / webgpu accounting) */
  activationPeakBytes: { cpu: number; webgpu: number };
  batches: BatchPlan[];
  fit: BrowserFit;
}

/** the batch graphs a decode of latents (B, F, C, h, w) runs, with how often each runs */
function batchShapes(config: VaeConfig, dims: readonly number[], tile: boolean): { shape: BatchShape; runs: number }[] {
  const [b, f] = [dims[0]!, dims[1]!];
  const plan = tiledDecode(config, dims, tile);
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

export function planVaeDecode(
  config: VaeConfig,
  dims: readonly number[],
  opts: { tile?: boolean; weights?: WeightSet; limits?: WebGpuLimits } = {},
): VaeDecodePlan {
  const weights = opts.weights ?? plannedVaeWeights(config);
  const tile = opts.tile ?? false;
  const batches = batchShapes(config, dims, tile).map(({ shape, runs }): BatchPlan => {
    const graph = buildDecoderGraph(config, weights, shape).model.graph;
    return {
      signature: batchSignature(shape),
      ...convCost(graph),
      runs,
      cpu: graphCost(graph),
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
    tiled: tile,
    tiles: tiledDecode(config, dims, tile).count,
    weightBytes: batches[0]!.cpu.weightBytes,
    flops: batches.reduce((s, b) => s + b.runs * b.flops, 0),
    activationPeakBytes: { cpu: cpu.activationPeakBytes, webgpu: webgpu.activationPeakBytes },
    batches,
    fit: browserFit(webgpu, cpu, opts.limits ?? WEBGPU_DEFAULT_LIMITS),
  };
}

/** untiled when a browser holds it, else diffusers' tiles (which match the reference's tiled decode) */
export function chooseVaeTiling(config: VaeConfig, dims: readonly number[], limits?: WebGpuLimits): VaeDecodePlan {
  const whole = planVaeDecode(config, dims, { tile: false, limits });
  return whole.fit.webgpu && whole.fit.wasm ? whole : planVaeDecode(config, dims, { tile: true, limits });
}
