// `GPU_BENCH_MEMORY=1 npm run bench -- gpu`: the memory side of issue 23 for the named configs of
// bench/gpu-configs.ts, the real 42-layer ConsisID (`consisid`) among them. The config's checkpoint
// is generated on disk (bfloat16 shards, as released), served by the mock hub with Range requests,
// and each precision runs in a child of its own (bench/stream-memory.ts): streamed, converted into a
// weight cache on disk, segments 'auto' made one after another on the native WebGPU EP, and one
// forward at a small latent size. Figures: peak JS + WASM against 1.5 GB, and the GPU buffers
// onnxruntime made (counted at Dawn's createBuffer/destroy) against the plan's converted weights +
// activation peak + 20%; RSS too (on SwiftShader the GPU's memory is host memory).
//   GPU_BENCH_CONFIGS=consisid, GPU_BENCH_WEIGHTS=int4 (default here), GPU_BENCH_SHAPE (default
//   frames=1,height=4,width=4,text=1,vit=9), GPU_BENCH_FORWARD=0 (sessions only), GPU_BENCH_LIMITS=planning
//   (2 GiB bindings, as the page's plan on a discrete GPU; default the adapter's), GPU_BENCH_HEAP_BUDGET
//   (bytes of one segment's weights; default 1 GiB), GPU_BENCH_CHECKPOINT_DIR (keep and reuse the
//   generated checkpoint there), GPU_BENCH_MEMORY_REPORTS (a folder for each child's whole report, every
//   reading included), GPU_BENCH_RUN_TIMEOUT_S
import { serve } from '@hono/node-server';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createMockHub } from '../src/mock-hub/app.ts';
import { parseConfig, type ConsisIDConfigInput } from '../src/model/graph/config.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { generatedCheckpoint } from '../src/model/test-support/generated-checkpoint.ts';
import { figure, type Figure } from './figure.ts';
import { gpuConfig } from './gpu-configs.ts';
import { PARTIAL_REPORT, type StreamMemoryReport } from './stream-memory-report.ts';

const BENCH = 'gpu';
const root = path.resolve(import.meta.dirname, '..');
/** one latent frame of 4 x 4 (4 patches), one text token, 9 ViT tokens: the whole chain runs, at the least size */
const SMALL_LATENTS = 'frames=1,height=4,width=4,text=1,vit=9';
/** what the memory rule allows beyond the plan (issue 23) */
const GPU_MARGIN = 1.2;
/** the page's JavaScript + WASM peak (issue 23: 1.5 GB) */
const PAGE_PEAK_MIB = 1536;

const mib = (b: number) => b / 2 ** 20;

/**
 * The config with its learned positional table sized to the height and width of `shape` (its only
 * tensor whose size follows the sample size; the released one is 17,776 x 3072 for 13 x 60 x 90):
 * the table pins the latents' height and width to the configured ones. The configured frames stay,
 * so a forward at other frames (sincos positions, as diffusers does) may take any text length.
 */
export function sizedToLatents(config: ConsisIDConfigInput, shape: string): ConsisIDConfigInput {
  if (!config.use_learned_positional_embeddings) return config;
  const kv = new Map(shape.split(',').map((p) => p.split('=') as [string, string]));
  const c = parseConfig(config);
  return {
    ...config,
    sample_height: Number(kv.get('height') ?? c.sample_height),
    sample_width: Number(kv.get('width') ?? c.sample_width),
  };
}

/** the mock hub in this process, serving `dir` as `local/<name>` by Range requests */
async function folderHub(repoId: string, dir: string) {
  const server = serve({ fetch: (r) => app.fetch(r), port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hub = await createMockHub({ baseUrl: url });
  hub.registerRepoFolder(repoId, dir);
  const app = hub.app;
  return {
    url,
    close: async () => {
      server.close();
      await hub.close();
    },
  };
}

export function memoryFigures(label: string, r: StreamMemoryReport): Figure[] {
  const at = (l: string) => r.readings.find((x) => x.label === l);
  const before = at('graph done') ?? r.readings[0]!;
  const after = at('all segments made') ?? r.readings.at(-1)!;
  // what the sessions added to the process beyond JavaScript and WASM: on SwiftShader the GPU's memory, and the runtime's own start-up
  const sessionsAdded = after.rssMiB - before.rssMiB - (after.jsWasmMiB - before.jsWasmMiB);
  const bound = mib(r.plan.gpuBytes) * GPU_MARGIN;
  const out: Figure[] = [
    figure(BENCH, `${label} plan: converted weights`, mib(r.plan.weightBytes), 'MiB'),
    figure(BENCH, `${label} plan: activation peak`, mib(r.plan.activationPeakBytes), 'MiB'),
    figure(BENCH, `${label} plan: segments`, r.plan.segments, ''),
    figure(BENCH, `${label} downloaded`, mib(r.downloadedBytes), 'MiB'),
    figure(BENCH, `${label} converted bytes in the cache`, mib(r.convertedBytes), 'MiB'),
    figure(BENCH, `${label} sessions made`, r.sessionsMade, ''),
    figure(BENCH, `${label} conversion + sessions`, r.sessionS, 's'),
    figure(BENCH, `${label} peak JS + WASM`, mib(r.peakJsWasmBytes), 'MiB', { op: '<', value: PAGE_PEAK_MIB }),
    figure(BENCH, `${label} peak GPU buffers`, mib(r.peakGpuBufferBytes), 'MiB', { op: '<=', value: bound }),
    figure(BENCH, `${label} peak RSS`, mib(r.peakRssBytes), 'MiB'),
    figure(BENCH, `${label} RSS the sessions added beyond JS + WASM`, sessionsAdded, 'MiB'),
  ];
  if (r.forwardS !== null) out.push(figure(BENCH, `${label} first forward`, r.forwardS, 's'));
  return out;
}

/** every precision of one named config, as figures */
export async function memoryConfig(
  name: string,
  emit: (f: Figure) => void,
  run: (args: string[], env: NodeJS.ProcessEnv, limitS: number) => Promise<string>,
  env: NodeJS.ProcessEnv,
  describeFailure: (e: unknown, limitS: number) => string,
): Promise<void> {
  const c = gpuConfig(name);
  const shape = process.env.GPU_BENCH_SHAPE ?? SMALL_LATENTS;
  const config = sizedToLatents(c.config, shape);
  parseShapeSpec(shape, parseConfig(config, name));
  const keep = process.env.GPU_BENCH_CHECKPOINT_DIR;
  const dir = keep ?? (await mkdtemp(path.join(tmpdir(), `bench-gpu-memory-${name}-`)));
  const cache = await mkdtemp(path.join(tmpdir(), `bench-gpu-memory-cache-`));
  const limitS = Number(process.env.GPU_BENCH_RUN_TIMEOUT_S ?? c.limitS);
  try {
    const t = performance.now();
    const { weightBytes } = await generatedCheckpoint(dir, config, { seed: 42, dtype: c.dtype, shards: c.shards });
    emit(figure(BENCH, `${name} checkpoint (${c.dtype}, ${c.shards} shards)`, mib(weightBytes), 'MiB'));
    emit(figure(BENCH, `${name} checkpoint generation (or reuse)`, (performance.now() - t) / 1000, 's'));
    const hub = await folderHub(`local/${name}`, dir);
    try {
      for (const w of (process.env.GPU_BENCH_WEIGHTS ?? 'int4').split(',').filter(Boolean)) {
        const label = `${name} memory webgpu ${w}`;
        const args = ['--expose-gc', '--import', 'tsx', path.join(root, 'bench', 'stream-memory.ts')];
        args.push('--hub', hub.url, '--repo', `local/${name}`, '--weights', w, '--shape', shape);
        args.push('--cache', path.join(cache, w), '--limits', process.env.GPU_BENCH_LIMITS ?? 'adapter');
        args.push('--forward', process.env.GPU_BENCH_FORWARD === '0' ? 'no' : 'yes');
        if (process.env.GPU_BENCH_HEAP_BUDGET) args.push('--heap-budget', process.env.GPU_BENCH_HEAP_BUDGET);
        try {
          // freed ArrayBuffers of 128 KiB and more go back to the system at once: RSS then shows what is held
          const report = JSON.parse(
            await run(args, { ...env, MALLOC_MMAP_THRESHOLD_: '131072' }, limitS),
          ) as StreamMemoryReport;
          for (const f of memoryFigures(label, report)) emit(f);
          const reports = process.env.GPU_BENCH_MEMORY_REPORTS;
          if (reports) await writeFile(path.join(reports, `${name}-${w}.json`), JSON.stringify(report, null, 1));
        } catch (e) {
          // sessions made, the forward stopped at the time limit: what the sessions cost still counts
          const partial = (e as { stderr?: string }).stderr?.split('\n').findLast((l) => l.startsWith(PARTIAL_REPORT));
          if (partial)
            for (const f of memoryFigures(
              label,
              JSON.parse(partial.slice(PARTIAL_REPORT.length)) as StreamMemoryReport,
            ))
              emit(f);
          emit({
            bench: BENCH,
            metric: `${label} error`,
            value: describeFailure(e, limitS),
            unit: '',
            target: null,
            ok: false,
          });
        }
      }
    } finally {
      await hub.close();
    }
  } finally {
    await rm(cache, { recursive: true, force: true });
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}
