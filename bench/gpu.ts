// `npm run bench -- gpu`: the preview's WebGPU path (onnxruntime-web's native WebGPU EP, the
// model's own graph and attention choice, the preview's DDIM loop) headless in Node on whatever
// adapter Dawn finds (SwiftShader without a GPU), for the named configs of bench/gpu-configs.ts;
// each run's error against onnxruntime-node CPU float32 on the same checkpoint and inputs. Every
// run is its own process under its config's time limit.
//   GPU_BENCH_CONFIGS=small (the default with GPU_BENCH_SWIFTSHADER=1; otherwise preview-s,
//   fullwidth-2, fullwidth-2-full, consisid), GPU_BENCH_WEIGHTS=float32,float16,int4, GPU_BENCH_RUNS=3
//   warm forwards, GPU_BENCH_DENOISE_STEPS=4, GPU_BENCH_RUN_TIMEOUT_S (overrides every config's limit),
//   GPU_BENCH_SWIFTSHADER=1 (SwiftShader's Vulkan ICD: GPU_BENCH_SWIFTSHADER_DIR, default Chromium's),
//   GPU_BENCH_DAWN_FLAGS (bench/dawn.ts), GPU_BENCH_FAMILY=uniform|heavy|outliers (the generated checkpoint,
//   docs/model-precision-family.md); GPU_BENCH_MEMORY=1: the memory runs of bench/gpu-memory.ts instead
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { figure, median, type Figure } from './figure.ts';
import type { GpuChildReport } from './gpu-child.ts';
import { CPU_ADAPTER_CONFIG_NAMES, GPU_ADAPTER_CONFIG_NAMES, gpuConfig, type GpuBenchConfig } from './gpu-configs.ts';
import { memoryConfig } from './gpu-memory.ts';
import { benchModelRefusals, type BenchDevice } from './gpu-model.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { writeCheckpointFolder } from '../src/model/models/consisid/checkpoint-folder.ts';
import { randomInputs } from '../src/model/cli/generate-command.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { writeSafetensors } from '../src/model/io/safetensors/write.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { PRECISION_ERROR_VS_FLOAT32, WEIGHT_PRECISIONS, type WeightPrecision } from '../src/model/plan/precision.ts';
import { checkWeightFamily } from '../src/model/models/consisid/random-weights.ts';

const BENCH = 'gpu';
// bundled into the GPU kit (bench/gpu-kit.ts) the child is gpu-child.mjs beside this file; from source, tsx runs it
const here = import.meta.dirname;
const bundled = import.meta.url.endsWith('.mjs');
const root = bundled ? here : path.resolve(here, '..');
const childScript = bundled ? [path.join(here, 'gpu-child.mjs')] : ['--import', 'tsx', path.join(here, 'gpu-child.ts')];

const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean);
const swiftshader = () => process.env.GPU_BENCH_SWIFTSHADER === '1';

function swiftshaderEnv(): Record<string, string> {
  const kit = path.join(here, 'swiftshader');
  const dir = process.env.GPU_BENCH_SWIFTSHADER_DIR ?? (existsSync(kit) ? kit : '/usr/lib/chromium');
  const ld = [dir, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return { VK_DRIVER_FILES: path.join(dir, 'vk_swiftshader_icd.json'), LD_LIBRARY_PATH: ld };
}

export function selectedConfigs(): string[] {
  return list(
    process.env.GPU_BENCH_CONFIGS,
    (swiftshader() ? CPU_ADAPTER_CONFIG_NAMES : GPU_ADAPTER_CONFIG_NAMES).join(','),
  );
}

function selectedWeights(): WeightPrecision[] {
  return list(process.env.GPU_BENCH_WEIGHTS, 'float32,float16,int4').map((w) => {
    if (!WEIGHT_PRECISIONS.includes(w as WeightPrecision))
      throw new Error(`GPU_BENCH_WEIGHTS: ${w} is none of ${WEIGHT_PRECISIONS.join(', ')}`);
    return w as WeightPrecision;
  });
}

const runLimitS = (c: GpuBenchConfig) => Number(process.env.GPU_BENCH_RUN_TIMEOUT_S ?? c.limitS);

/** the most a whole config may take: generation, the CPU reference and each precision, each under its limit */
export function configLimitS(name: string): number {
  return runLimitS(gpuConfig(name)) * (selectedWeights().length + 2);
}

interface ChildRun {
  dir: string;
  config: GpuBenchConfig;
  device: BenchDevice;
  weights: WeightPrecision;
  denoiseSteps: number;
}

/** a child's report: gpu-child.ts's or stream-memory.ts's JSON line */
const REPORT_LINE = /^(\{"(?:device|weights)":.*)\n/m;
/** after its report a child has this long to exit: Dawn's teardown has been seen to hang an exit */
const EXIT_GRACE_MS = 10_000;

/** a child process: its report line, or an error carrying its stderr and whether its time limit stopped it */
function runChild(args: string[], env: NodeJS.ProcessEnv, limitS: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    let grace: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      killed = true;
      p.kill('SIGKILL');
    }, limitS * 1000);
    p.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!grace && REPORT_LINE.test(stdout)) grace = setTimeout(() => p.kill('SIGKILL'), EXIT_GRACE_MS);
    });
    p.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
    p.on('close', (code) => {
      clearTimeout(limit);
      clearTimeout(grace);
      const report = REPORT_LINE.exec(stdout)?.[1];
      if (report) resolve(report);
      else reject(Object.assign(new Error(`exit code ${code}`), { killed, stderr }));
    });
  });
}

async function child({ dir, config, device, weights, denoiseSteps }: ChildRun) {
  const out = path.join(dir, `sample-${device}-${weights}.f32`);
  const args = [
    ...childScript,
    '--dir',
    path.join(dir, 'checkpoint'),
    '--inputs',
    path.join(dir, 'inputs.safetensors'),
  ];
  args.push('--shape', config.shape, '--device', device, '--weights', weights);
  args.push('--runs', process.env.GPU_BENCH_RUNS ?? '3', '--denoise-steps', String(denoiseSteps), '--out', out);
  const env = { ...process.env, ...(swiftshader() ? swiftshaderEnv() : {}) };
  const report = JSON.parse(await runChild(args, env, runLimitS(config))) as GpuChildReport;
  if (report.skipped) return { report, sample: null };
  const bytes = await readFile(out);
  return { report, sample: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
}

/** what stopped a run: its time limit (and the stage it had reached) or its last line of stderr */
function failure(e: unknown, limitS: number): string {
  const x = e as { killed?: boolean; stderr?: string; message?: string };
  const lines = (x.stderr ?? '').split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
  const stage = lines.filter((l) => l.startsWith('stage: ')).at(-1);
  if (x.killed) return `stopped at its ${limitS} s limit during ${stage ?? 'start-up'}`;
  // an uncaught error ends with its stack and Node's version line: the error's own line says what
  const error = lines.filter((l) => /^\w*Error\b/.test(l.trim())).at(-1);
  return (error ?? lines.filter((l) => !l.startsWith('Node.js v')).at(-1) ?? x.message ?? String(e)).slice(0, 300);
}

const info = (metric: string, value: string): Figure => ({
  bench: BENCH,
  metric,
  value,
  unit: '',
  target: null,
  ok: null,
});
const errorFigure = (metric: string, value: string): Figure => ({
  bench: BENCH,
  metric,
  value,
  unit: '',
  target: null,
  ok: false,
});

/** float32 matches the CPU to rounding; float16 and int8 within 3e-2 (issue 23); int4 within its stated error */
const errorBound = (w: WeightPrecision) =>
  w === 'float32' ? 1e-4 : w === 'int4' ? PRECISION_ERROR_VS_FLOAT32.int4 : 3e-2;

function runFigures(label: string, r: GpuChildReport, ref: GpuChildReport | null): Figure[] {
  const a = r.adapter!;
  const adapter = `${a.vendor}/${a.architecture}${a.fallback ? ' (fallback)' : ''}, subgroups ${a.subgroupMinSize}, f16 ${a.shaderF16}, max binding ${(a.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB`;
  const warm = median(r.warmMs);
  const out = [
    info(`${label} adapter`, adapter),
    info(`${label} dawn flags`, a.dawnFlags.join(' ') || 'none'),
    info(`${label} attention`, r.attention),
    figure(BENCH, `${label} session`, r.sessionMs, 'ms'),
    figure(BENCH, `${label} first forward`, r.firstMs, 'ms'),
    figure(BENCH, `${label} warm forward (median)`, warm, 'ms'),
  ];
  if (ref) out.push(figure(BENCH, `${label} vs cpu float32 warm`, warm / median(ref.warmMs), 'x'));
  if (r.denoise)
    out.push(
      figure(BENCH, `${label} ${r.denoise.steps}-step denoise`, r.denoise.steps / (r.denoise.ms / 1000), 'steps/s'),
    );
  out.push(
    figure(BENCH, `${label} peak JS + wasm heap`, r.peakJsWasmBytes / 2 ** 20, 'MiB', { op: '<', value: 1536 }),
    figure(BENCH, `${label} peak RSS`, r.peakRssBytes / 2 ** 20, 'MiB'),
  );
  return out;
}

async function benchConfig(name: string, emit: (f: Figure) => void): Promise<void> {
  const c = gpuConfig(name);
  const config = parseConfig(c.config, name);
  const shape = parseShapeSpec(c.shape, config);
  const refusals = benchModelRefusals(config, shape);
  const weights: WeightPrecision[] = [];
  for (const w of selectedWeights()) {
    const refused = refusals.get(w);
    if (refused) emit(info(`${name} webgpu ${w} skipped`, refused));
    else weights.push(w);
  }
  if (!weights.length) return;
  const family = checkWeightFamily(process.env.GPU_BENCH_FAMILY ?? 'uniform', 'GPU_BENCH_FAMILY');
  const dir = await mkdtemp(path.join(tmpdir(), `bench-gpu-${name}-`));
  try {
    let t = performance.now();
    const bytes = await writeCheckpointFolder(path.join(dir, 'checkpoint'), { ...c.config }, config, {
      seed: 42,
      dtype: c.dtype,
      shards: c.shards,
      family,
    });
    const generated = `${(bytes / 2 ** 30).toFixed(2)} GiB of ${c.dtype} in ${c.shards} shard(s), ${family} family`;
    emit(info(`${name} checkpoint`, generated));
    emit(figure(BENCH, `${name} checkpoint generation`, (performance.now() - t) / 1000, 's'));
    await writeFile(
      path.join(dir, 'inputs.safetensors'),
      writeSafetensors(randomInputs(config, shape, 43), { format: 'pt' }),
    );
    const runOf = (device: BenchDevice, w: WeightPrecision, denoiseSteps: number) =>
      child({ dir, config: c, device, weights: w, denoiseSteps });
    let ref: Awaited<ReturnType<typeof child>> | null = null;
    if (c.cpuReference === true) {
      try {
        t = performance.now();
        ref = await runOf('cpu', 'float32', 0);
        emit(figure(BENCH, `${name} cpu float32 warm forward`, median(ref.report.warmMs), 'ms'));
      } catch (e) {
        emit(errorFigure(`${name} cpu float32 error`, failure(e, runLimitS(c))));
      }
    } else emit(info(`${name} cpu float32 reference`, c.cpuReference));
    let gpuFloat32: Float32Array | null = null;
    const denoiseSteps = Number(process.env.GPU_BENCH_DENOISE_STEPS ?? 4);
    for (const w of weights) {
      const label = `${name} webgpu ${w}`;
      try {
        const { report, sample } = await runOf('webgpu', w, denoiseSteps);
        if (!sample) {
          emit(info(`${label} skipped`, report.skipped ?? ''));
          continue;
        }
        for (const f of runFigures(label, report, ref?.report ?? null)) emit(f);
        const against = ref?.sample ?? (w === 'float32' ? null : gpuFloat32);
        if (against)
          emit(
            figure(
              BENCH,
              `${label} max rel error vs ${ref ? 'cpu' : 'webgpu'} float32`,
              relativeError(sample, against),
              '',
              {
                op: '<=',
                value: errorBound(w),
              },
            ),
          );
        if (w === 'float32') gpuFloat32 = sample;
      } catch (e) {
        emit(errorFigure(`${label} error`, failure(e, runLimitS(c))));
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** every selected config; `emit` sees each figure as it is measured (the kit writes them as they come) */
export default async function gpuBench(emit: (f: Figure) => void = () => undefined): Promise<Figure[]> {
  const figures: Figure[] = [];
  const keep = (f: Figure) => {
    figures.push(f);
    emit(f);
  };
  const memory = process.env.GPU_BENCH_MEMORY === '1';
  const env = { ...process.env, ...(swiftshader() ? swiftshaderEnv() : {}) };
  for (const name of selectedConfigs()) {
    try {
      if (memory) await memoryConfig(name, keep, runChild, env, failure);
      else await benchConfig(name, keep);
    } catch (e) {
      keep(errorFigure(`${name} error`, String((e as Error).message ?? e).slice(0, 300)));
    }
  }
  return figures;
}
