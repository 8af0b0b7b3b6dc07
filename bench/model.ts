// `npm run bench -- model`: ConsisID preview-s forward on onnxruntime-node CPU (2 threads).
import { figure, median, type Figure } from './figure.ts';
import { parseConfig } from '../src/model/config.ts';
import { buildConsisIDGraph } from '../src/model/graph/transformer.ts';
import { encodeModel } from '../src/model/onnx/onnx-proto.ts';
import { GraphBuilder } from '../src/model/onnx/graph-builder.ts';
import { matmul } from '../src/model/onnx/ops.ts';
import { fillUniform, prng, randomWeights, weightSetFromHost } from '../src/model/random-weights.ts';
import { prepareForward } from '../src/model/forward-inputs.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import type { HostTensor } from '../src/model/tensor.ts';

const BENCH = 'model';
const THREADS = 2;
const RUNS = 5;
const REFERENCE_S = 3.6;

export const PREVIEW_S = {
  num_attention_heads: 8,
  attention_head_dim: 64,
  num_layers: 8,
  in_channels: 16,
  out_channels: 16,
  time_embed_dim: 512,
  text_embed_dim: 4096,
  sample_width: 44,
  sample_height: 30,
  sample_frames: 13,
  is_train_face: true,
  LFE_output_dim: 341,
  cross_attn_interval: 2,
};

function randn(shape: number[], seed: number): HostTensor {
  const n = shape.reduce((a, b) => a * b, 1);
  return { dtype: 'float32', shape, data: fillUniform(new Float32Array(n), prng(seed), 1) };
}

const MATMUL_N = 2048;

/** one large MatMul on the same runtime and threads: the machine's fp32 GEMM rate */
async function matmulSession() {
  const n = MATMUL_N;
  const g = new GraphBuilder('matmul_rate');
  const a = g.input('a', 'float32', [n, n]);
  const w = g.initializer('w', 'float32', [n, n], new Uint8Array(fillUniform(new Float32Array(n * n), prng(7), 0.02).buffer));
  g.output(matmul(g, a, w), 'y');
  const session = await nodeBackend().createSession(encodeModel(g.toModel()), { device: 'cpu', threads: THREADS });
  const feeds = { a: { data: fillUniform(new Float32Array(n * n), prng(8), 1), dims: [n, n] } };
  await session.run(feeds);
  return { session, feeds, flops: 2 * n ** 3 };
}

async function timed(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

export default async function run(): Promise<Figure[]> {
  const config = parseConfig(PREVIEW_S);
  const weights = weightSetFromHost(randomWeights(config, 42));
  const args = {
    hidden_states: randn([1, 4, 16, 30, 44], 1),
    encoder_hidden_states: randn([1, 226, 4096], 2),
    timestep: 500,
    id_cond: randn([1, 1280], 3),
    id_vit_hidden: [0, 1, 2, 3, 4].map((i) => randn([1, 577, 1024], 10 + i)),
  };
  const prepared = prepareForward(config, args);

  let t0 = performance.now();
  const built = buildConsisIDGraph(config, weights, prepared.shape);
  const bytes = encodeModel(built.model);
  const buildS = (performance.now() - t0) / 1000;

  t0 = performance.now();
  const session = await nodeBackend().createSession(bytes, { device: 'cpu', threads: THREADS });
  const sessionS = (performance.now() - t0) / 1000;

  await session.run(prepared.feeds);
  const mm = await matmulSession();
  // forward and MatMul runs alternate, so both see the same machine load
  const fw: { wall: number; cpu: number }[] = [];
  const mmRuns: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    fw.push(await timed(() => session.run(prepared.feeds)));
    mmRuns.push(await timed(() => mm.session.run(mm.feeds)));
  }
  await session.release();
  await mm.session.release();
  const times = fw.map((r) => r.wall);
  const med = median(times);
  const cpuPerRun = median(fw.map((r) => r.cpu));
  const rate = { wall: mm.flops / median(mmRuns.map((r) => r.wall)), cpu: mm.flops / median(mmRuns.map((r) => r.cpu)) };
  const achieved = built.flops / med;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  // the model's FLOPs as diffusers computes it: the same graph without the algebraic folds
  const referenceFlops = buildConsisIDGraph(config, weights, prepared.shape, { foldAttention: 'never', pruneLastBlockText: false }).flops;
  return [
    figure(BENCH, 'graph_build_time', buildS, 's'),
    figure(BENCH, 'session_create_time', sessionS, 's'),
    figure(BENCH, 'forward_median', med, 's', { op: '<=', value: REFERENCE_S / 1.8 }),
    figure(BENCH, 'forward_runs', times.map((t) => t.toFixed(3)).join(' '), 's'),
    figure(BENCH, 'peak_rss', peakRss / 2 ** 20, 'MiB'),
    figure(BENCH, 'model_flops', referenceFlops / 1e9, 'GFLOP'),
    figure(BENCH, 'graph_flops_executed', built.flops / 1e9, 'GFLOP'),
    figure(BENCH, 'matmul_rate_fp32', rate.wall / 1e9, 'GFLOP/s'),
    figure(BENCH, 'achieved_rate', achieved / 1e9, 'GFLOP/s'),
    // efficiency counts the FLOPs the graph executes; utilization the model's nominal FLOPs
    figure(BENCH, 'efficiency', achieved / rate.wall, 'ratio', { op: '>=', value: 0.75 }),
    figure(BENCH, 'model_flops_utilization', referenceFlops / med / rate.wall, 'ratio'),
    figure(BENCH, 'forward_cpu_time', cpuPerRun, 'CPU-s'),
    figure(BENCH, 'efficiency_cpu_time', built.flops / cpuPerRun / rate.cpu, 'ratio'),
    figure(BENCH, 'speedup_vs_reference', REFERENCE_S / med, 'x', { op: '>=', value: 1.8 }),
  ];
}
