// One precision of `npm run bench -- model`, in its own process (so its peak RSS is its own):
// loads the checkpoint, builds and creates the session, runs the first and the warm forwards
// (alternating with a 2048³ MatMul when asked), writes the sample, prints one JSON line.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCommandLine } from '../src/cli/command-line.ts';
import { ConsisIDTransformer3DModel } from '../src/model/node.ts';
import { argsFromNamedTensors } from '../src/model/models/consisid/named-inputs.ts';
import { prepareForward } from '../src/model/models/consisid/forward-inputs.ts';
import { buildConsisIDGraph } from '../src/model/graph/transformer.ts';
import { GraphBuilder } from '../src/model/onnx/graph-builder.ts';
import { matmul } from '../src/model/onnx/ops.ts';
import { graphCost } from '../src/model/onnx/graph-cost.ts';
import { nodeBackend } from '../src/model/runtime/node.ts';
import { fillUniform, prng } from '../src/model/models/consisid/random-weights.ts';
import { entryToHost, parseSafetensors } from '../src/model/io/safetensors/read.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/plan/precision.ts';
import type { ModelStage } from '../src/model/runtime/events.ts';

export const THREADS = 2;
const MATMUL_N = 2048;

export interface Timed {
  wall: number;
  cpu: number;
}

export interface ChildReport {
  weights: WeightPrecision;
  stages: Record<Exclude<ModelStage, 'forward'>, Timed>;
  first: Timed;
  warm: Timed[];
  matmul: Timed[];
  matmulFlops: number;
  /** what the session holds and the activation peak, as `consisid plan` computes them from the graph */
  weightBytes: number;
  activationPeakBytes: number;
  graphFlops: number;
  /** the graph built without the algebraic folds: the model's FLOPs as diffusers computes them */
  nominalFlops: number;
  /** after the first forward (warm forwards add nothing: RSS is flat from there) */
  peakRss: number;
}

const cpuNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

async function timed(fn: () => Promise<unknown>): Promise<Timed> {
  const c0 = cpuNow();
  const t0 = performance.now();
  await fn();
  return { wall: (performance.now() - t0) / 1000, cpu: cpuNow() - c0 };
}

/** one large MatMul on the same runtime and threads: the machine's fp32 GEMM rate */
async function matmulSession() {
  const n = MATMUL_N;
  const g = new GraphBuilder('matmul_rate');
  const a = g.input('a', 'float32', [n, n]);
  const w = g.initializer(
    'w',
    'float32',
    [n, n],
    new Uint8Array(fillUniform(new Float32Array(n * n), prng(7), 0.02).buffer),
  );
  g.output(matmul(g, a, w), 'y');
  const session = await nodeBackend().createSession(
    { model: g.toModel(), externalData: new Map() },
    { device: 'cpu', threads: THREADS },
  );
  const feeds = { a: { data: fillUniform(new Float32Array(n * n), prng(8), 1), dims: [n, n] } };
  await session.run(feeds);
  return { run: () => session.run(feeds), release: () => session.release(), flops: 2 * n ** 3 };
}

function planned(g: Parameters<typeof graphCost>[0]) {
  const { weightBytes, activationPeakBytes } = graphCost(g);
  return { weightBytes, activationPeakBytes };
}

async function main(argv: readonly string[]): Promise<ChildReport> {
  const { values } = parseCommandLine(argv, {
    dir: { type: 'string' },
    inputs: { type: 'string' },
    weights: { type: 'string' },
    runs: { type: 'string' },
    out: { type: 'string' },
    matmul: { type: 'boolean' },
  });
  const weights = values.weights as WeightPrecision;
  if (!WEIGHT_PRECISIONS.includes(weights)) throw new Error(`--weights ${values.weights}`);
  const inputs = parseSafetensors(new Uint8Array(readFileSync(values.inputs!)), values.inputs!);
  const args = argsFromNamedTensors(new Map([...inputs.tensors].map(([k, e]) => [k, entryToHost(e, values.inputs!)])));
  const stages: Partial<ChildReport['stages']> = {};
  const cpuAtStart = new Map<ModelStage, number>();
  const model = await ConsisIDTransformer3DModel.fromPretrained(values.dir!, {
    device: 'cpu',
    threads: THREADS,
    weights,
    onStage: (e) => {
      if (e.state === 'start') cpuAtStart.set(e.stage, cpuNow());
      else if (e.stage !== 'forward') stages[e.stage] = { wall: e.ms / 1000, cpu: cpuNow() - cpuAtStart.get(e.stage)! };
    },
  });
  let sample: Float32Array | null = null;
  const forward = async () => {
    sample = (await model.forward(args)).sample.data as Float32Array;
  };
  // graph build and session creation are stages of their own: the first forward is the run alone
  await model.session(args);
  const first = await timed(forward);
  // the model's own peak: after its first forward and before the MatMul session exists
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const mm = values.matmul ? await matmulSession() : null;
  const warm: Timed[] = [];
  const matmulRuns: Timed[] = [];
  for (let i = 0; i < Number(values.runs ?? 3); i++) {
    // forward and MatMul runs alternate, so both see the same machine load
    warm.push(await timed(forward));
    if (mm) matmulRuns.push(await timed(mm.run));
  }
  await mm?.release();
  writeFileSync(values.out!, sample!);
  const shape = prepareForward(model.config, args).shape;
  const built = model.buildGraph(shape);
  await model.release();
  return {
    weights,
    stages: stages as ChildReport['stages'],
    first,
    warm,
    matmul: matmulRuns,
    matmulFlops: mm?.flops ?? 0,
    ...planned(built.model.graph),
    graphFlops: built.flops,
    nominalFlops: buildConsisIDGraph(model.config, model.weights, shape, {
      foldAttention: 'never',
      pruneLastBlockText: false,
    }).flops,
    peakRss,
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(JSON.stringify(await main(process.argv.slice(2))));
}
