// `npm run bench -- model`: ConsisID preview-s forward on onnxruntime-node CPU (2 threads).
import { figure, median, type Figure } from './figure.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseConfig } from '../src/model/config.ts';
import { buildConsisIDGraph } from '../src/model/graph/transformer.ts';
import { GraphBuilder } from '../src/model/onnx/graph-builder.ts';
import { matmul } from '../src/model/onnx/ops.ts';
import { fillUniform, prng } from '../src/model/random-weights.ts';
import { writeCheckpointFolder } from '../src/model/checkpoint-folder.ts';
import { loadCheckpoint } from '../src/model/loader/load-checkpoint.ts';
import { localSource } from '../src/model/loader/local-source.ts';
import { sessionModel } from '../src/model/session-model.ts';
import { prepareForward } from '../src/model/forward-inputs.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import type { HostTensor } from '../src/model/tensor.ts';

const BENCH = 'model';
const THREADS = 2;
const RUNS = 5;
const REFERENCE_S = 3.6;

import { PREVIEW_S_CONFIG as PREVIEW_S } from '../src/model/named-configs.ts';

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
  const session = await nodeBackend().createSession({ model: g.toModel(), externalData: new Map() }, { device: 'cpu', threads: THREADS });
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
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-model-'));
  await writeCheckpointFolder(dir, { ...PREVIEW_S }, config, { seed: 42 });
  const { weights, files } = await loadCheckpoint(localSource(dir));
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
  const bytes = await sessionModel(built.model, files);
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
  await rm(dir, { recursive: true, force: true });
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
