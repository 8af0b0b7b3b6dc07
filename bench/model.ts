// `npm run bench -- model`: ConsisID preview-s (829 MiB of float32 weights, generated into a
// checkpoint folder) on onnxruntime-node CPU, 2 threads, for every weight precision in one run:
// each precision in its own process (its own peak RSS), the precisions interleaved round by round
// so they share the machine's load; the CLI's wall time to a written output next to them.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { figure, median, type Figure } from './figure.ts';
import type { ChildReport, Timed } from './model-child.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { writeCheckpointFolder } from '../src/model/models/consisid/checkpoint-folder.ts';
import { randomInputs } from '../src/model/cli/generate-command.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { PREVIEW_S_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import { writeSafetensors } from '../src/model/io/safetensors/write.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/plan/precision.ts';
import { checkWeightFamily } from '../src/model/models/consisid/random-weights.ts';

const BENCH = 'model';
const ROUNDS = Number(process.env.MODEL_BENCH_ROUNDS ?? 2);
const RUNS = Number(process.env.MODEL_BENCH_RUNS ?? 3);
/** which generated checkpoint (docs/model-precision-family.md): the precisions' error differs by family */
const FAMILY = checkWeightFamily(process.env.MODEL_BENCH_FAMILY ?? 'uniform', 'MODEL_BENCH_FAMILY');
const REFERENCE_S = 3.6;
const SHAPE = 'frames=4,height=30,width=44,text=226,vit=577';
const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

/** targets for the quantized precisions: one of them at <= 0.5x the float32 time, error <= 3e-2, >= 4x smaller */
const QUANTIZED = new Set<WeightPrecision>(['int8', 'int4']);

async function child(
  dir: string,
  weights: WeightPrecision,
  matmul: boolean,
): Promise<ChildReport & { sample: Float32Array }> {
  const out = path.join(dir, `sample-${weights}.f32`);
  const args = [
    '--import',
    'tsx',
    path.join(root, 'bench/model-child.ts'),
    '--dir',
    path.join(dir, 'checkpoint'),
    '--inputs',
    path.join(dir, 'inputs.safetensors'),
    '--weights',
    weights,
    '--runs',
    String(RUNS),
    '--out',
    out,
    ...(matmul ? ['--matmul'] : []),
  ];
  const { stdout } = await run(process.execPath, args, { cwd: root, maxBuffer: 2 ** 24 });
  const bytes = await readFile(out);
  return {
    ...(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport),
    sample: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
  };
}

/** `consisid forward` as a user runs it: process start to the written output */
async function cliRun(dir: string, weights: WeightPrecision): Promise<number> {
  const t0 = performance.now();
  await run(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'src/model/cli.ts'),
      'forward',
      '--model',
      path.join(dir, 'checkpoint'),
      '--inputs',
      path.join(dir, 'inputs.safetensors'),
      '--out',
      path.join(dir, 'cli-out.safetensors'),
      '--threads',
      '2',
      '--weights',
      weights,
    ],
    { cwd: root },
  );
  return (performance.now() - t0) / 1000;
}

const med = (xs: Timed[], k: keyof Timed) => median(xs.map((x) => x[k]));

export default async function runBench(): Promise<Figure[]> {
  const config = parseConfig(PREVIEW_S_CONFIG);
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-model-'));
  try {
    await writeCheckpointFolder(path.join(dir, 'checkpoint'), { ...PREVIEW_S_CONFIG }, config, {
      seed: 42,
      family: FAMILY,
    });
    await writeFile(
      path.join(dir, 'inputs.safetensors'),
      writeSafetensors(randomInputs(config, parseShapeSpec(SHAPE, config), 43)),
    );
    const reports = new Map<WeightPrecision, (ChildReport & { sample: Float32Array })[]>();
    // one-shot runs: float32 (the target) and int8 (its quantizing is part of the wait)
    const cli = { float32: [] as number[], int8: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const w of WEIGHT_PRECISIONS) {
        console.error(`# model: round ${r + 1}/${ROUNDS}, ${w}`);
        reports.set(w, [...(reports.get(w) ?? []), await child(dir, w, w === 'float32')]);
      }
      for (const w of ['float32', 'int8'] as const) cli[w].push(await cliRun(dir, w));
    }
    return figures(reports, cli);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function figures(
  reports: Map<WeightPrecision, (ChildReport & { sample: Float32Array })[]>,
  cli: { float32: number[]; int8: number[] },
): Figure[] {
  const f32 = reports.get('float32')!;
  const f32Warm = f32.flatMap((r) => r.warm);
  const base = { wall: med(f32Warm, 'wall'), cpu: med(f32Warm, 'cpu') };
  const out: Figure[] = [];
  const meetsAll: WeightPrecision[] = [];
  for (const [w, rs] of reports) {
    const warm = rs.flatMap((r) => r.warm);
    const stage = (s: keyof ChildReport['stages']) => median(rs.map((r) => r.stages[s].wall));
    const ratio = med(warm, 'wall') / base.wall;
    const err = relativeError(rs[0]!.sample, f32[0]!.sample);
    const smaller = f32[0]!.weightBytes / rs[0]!.weightBytes;
    const q = QUANTIZED.has(w);
    const quantizedTargets = [
      figure(BENCH, `${w}.ratio_to_float32`, ratio, 'x', q ? { op: '<=', value: 0.5 } : undefined),
      figure(BENCH, `${w}.max_rel_error_vs_float32`, err, 'ratio', q ? { op: '<=', value: 3e-2 } : undefined),
      figure(BENCH, `${w}.weights_smaller`, smaller, 'x', q ? { op: '>=', value: 4 } : undefined),
    ] as const;
    if (q && quantizedTargets.every((f) => f.ok)) meetsAll.push(w);
    out.push(
      figure(BENCH, `${w}.load`, stage('weights'), 's'),
      figure(BENCH, `${w}.graph_build`, stage('graph'), 's'),
      figure(BENCH, `${w}.graph_build_cpu`, median(rs.map((r) => r.stages.graph.cpu)), 'CPU-s'),
      figure(BENCH, `${w}.session_create`, stage('session'), 's'),
      figure(
        BENCH,
        `${w}.first_forward`,
        med(
          rs.map((r) => r.first),
          'wall',
        ),
        's',
      ),
      figure(
        BENCH,
        `${w}.forward_median`,
        med(warm, 'wall'),
        's',
        w === 'float32' ? { op: '<=', value: REFERENCE_S / 1.8 } : undefined,
      ),
      figure(BENCH, `${w}.forward_runs`, warm.map((t) => t.wall.toFixed(2)).join(' '), 's'),
      figure(BENCH, `${w}.forward_cpu`, med(warm, 'cpu'), 'CPU-s'),
      quantizedTargets[0],
      figure(BENCH, `${w}.ratio_to_float32_cpu`, med(warm, 'cpu') / base.cpu, 'x'),
      quantizedTargets[1],
      figure(BENCH, `${w}.weight_bytes`, rs[0]!.weightBytes / 2 ** 20, 'MiB'),
      quantizedTargets[2],
      figure(BENCH, `${w}.peak_rss`, median(rs.map((r) => r.peakRss)) / 2 ** 20, 'MiB'),
      // `consisid plan`'s figure for the same graph: weights + activation peak (no runtime or Node baseline)
      figure(
        BENCH,
        `${w}.planned_weights_plus_activations`,
        (rs[0]!.weightBytes + rs[0]!.activationPeakBytes) / 2 ** 20,
        'MiB',
      ),
    );
  }
  // the target is one quantized precision meeting all three at once
  out.push({
    ...figure(BENCH, 'quantized_meeting_all_targets', meetsAll.join(', ') || 'none', ''),
    target: 'int8 or int4',
    ok: meetsAll.length > 0,
  });
  out.push(figure(BENCH, 'checkpoint_family', FAMILY, ''));
  const weights = f32[0]!.weightBytes;
  const cliWall = median(cli.float32);
  const mm = f32.flatMap((r) => r.matmul);
  const rate = { wall: f32[0]!.matmulFlops / med(mm, 'wall'), cpu: f32[0]!.matmulFlops / med(mm, 'cpu') };
  const flops = f32[0]!.graphFlops;
  out.push(
    figure(BENCH, 'float32.peak_rss_over_weights', median(f32.map((r) => r.peakRss)) / weights, 'x', {
      op: '<=',
      value: 1.5,
    }),
    figure(BENCH, 'cli_wall_to_output', cliWall, 's'),
    figure(BENCH, 'cli_wall_over_warm_forward', cliWall / base.wall, 'x', { op: '<=', value: 3 }),
    figure(BENCH, 'int8.cli_wall_to_output', median(cli.int8), 's'),
    figure(BENCH, 'model_flops', f32[0]!.nominalFlops / 1e9, 'GFLOP'),
    figure(BENCH, 'graph_flops_executed', flops / 1e9, 'GFLOP'),
    figure(BENCH, 'matmul_rate_fp32', rate.wall / 1e9, 'GFLOP/s'),
    // efficiency counts the FLOPs the graph executes; utilization the model's nominal FLOPs
    figure(BENCH, 'efficiency', flops / base.wall / rate.wall, 'ratio', { op: '>=', value: 0.75 }),
    figure(BENCH, 'efficiency_cpu_time', flops / base.cpu / rate.cpu, 'ratio'),
    figure(BENCH, 'model_flops_utilization', f32[0]!.nominalFlops / base.wall / rate.wall, 'ratio'),
    figure(BENCH, 'speedup_vs_reference', REFERENCE_S / base.wall, 'x', { op: '>=', value: 1.8 }),
  );
  return out;
}
