// `npm run bench -- preview`: the model preview page in headless Chromium.
// - preview-s (829 MiB of float32 weights in one file) and a sharded checkpoint over 2 GB, generated
//   into tmp/ and served as local hub repos: time to the first output on WASM with an empty cache
//   and after a reload, peak memory of all Chromium processes against the weight bytes.
// - the tiny demo checkpoint: forward time per step on WebGPU (SwiftShader, so a CPU figure too)
//   and on WASM, side by side with onnxruntime-node CPU measured in the same run on the same inputs.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { chromium, type Page } from '@playwright/test';
import { Hono } from 'hono';
import { spawnSync } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromiumArgs } from '../playwright.config.ts';
import { securityHeaders } from '../scripts/security-headers.ts';
import { createMockHub } from '../src/mock-hub/app.ts';
import { TOKENS } from '../src/mock-hub/seed/users.ts';
import { demoCheckpoints } from '../src/model/models/consisid/demo-checkpoints.ts';
import { ConsisIDTransformer3DModel } from '../src/model/node.ts';
import { forwardArgs, generateInputs } from '../src/model/pipeline/inputs.ts';
import { defaultSpec } from '../src/model/graph/input-spec.ts';
import type { Timings } from '../src/model/pipeline/run-types.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { figure, median, type Figure } from './figure.ts';
import { PREVIEW_S_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import { generatedCheckpoint } from '../src/model/test-support/generated-checkpoint.ts';
import { measurePreview, signInTo, type PreviewRun } from './preview-checkpoint.ts';

const BENCH = 'preview';
const REPO = 'consisid-community/consisid-tiny';
const RUNS = Number(process.env.PREVIEW_BENCH_RUNS ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'tmp', 'bench-preview-dist');

export function build(): void {
  // a private build so the bench never races other builds of dist/
  const r = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
}

/** checkpoints generated into tmp/ (reused while their recipe is the same) and served as hub repos */
const LOCAL_REPOS = {
  'local/preview-s': { dir: path.join(root, 'tmp', 'checkpoints', 'preview-s'), config: PREVIEW_S_CONFIG, shards: 1 },
  // 48 layers of preview-s (identity module included): 2.16 GB of float32 weights in 4 shards
  'local/sharded-2gb': {
    dir: path.join(root, 'tmp', 'checkpoints', 'sharded-2gb'),
    config: { ...PREVIEW_S_CONFIG, num_layers: 48 },
    shards: 4,
  },
};

/** `folders`: the local checkpoint folders served as hub repos (repo id -> folder; default this bench's) */
export async function startServer(
  folders: Record<string, string> = Object.fromEntries(Object.entries(LOCAL_REPOS).map(([id, r]) => [id, r.dir])),
): Promise<{ url: string; close(): Promise<void> }> {
  // routes are mounted once the port (and so the mock hub's base URL) is known, before any request
  const app = new Hono();
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mock = await createMockHub({ baseUrl: url });
  for (const d of demoCheckpoints()) mock.registerRepoFiles(d.repoId, d.files);
  for (const [repoId, dir] of Object.entries(folders)) mock.registerRepoFolder(repoId, dir);
  app.use('*', async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(securityHeaders)) c.res.headers.set(k, v);
  });
  app.route('/', mock.app);
  app.use('/*', serveStatic({ root: path.relative(process.cwd(), outDir) || '.' }));
  const indexHtml = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  app.get('*', (c) => c.html(indexHtml));
  return {
    url,
    close: async () => {
      server.close();
      await mock.close();
    },
  };
}

interface Summary {
  provider: string;
  shape: number[];
  timings: Timings;
}

async function runOnce(page: Page): Promise<Summary> {
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  await page.getByTestId('preview-status').filter({ hasText: 'Model loaded' }).waitFor({ timeout: 300_000 });
  const err = await page.getByTestId('preview-error').count();
  if (err) throw new Error(`the page reported: ${await page.getByTestId('preview-error').textContent()}`);
  return JSON.parse((await page.getByTestId('output-summary').textContent()) ?? '{}') as Summary;
}

async function download(page: Page): Promise<Float32Array> {
  const { parseSafetensors, entryToFloat32 } = await import('../src/model/io/safetensors/read.ts');
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download output (.safetensors)' }).click(),
  ]);
  const f = parseSafetensors(new Uint8Array(readFileSync(await dl.path())), 'output');
  return entryToFloat32(f.tensors.get('sample')!, 'sample');
}

const TOKEN = TOKENS.aliceWrite;
const MIB = 2 ** 20;

function runFigures(name: string, r: PreviewRun, weightBytes: number, targets: boolean): Figure[] {
  const t = r.timings;
  return [
    figure(BENCH, `${name}_first_output_s`, r.firstOutputS, 's', targets ? { op: '<=', value: 15 } : undefined),
    figure(
      BENCH,
      `${name}_peak_memory_x_weights`,
      r.peakPss / weightBytes,
      'x',
      targets ? { op: '<=', value: 2.5 } : undefined,
    ),
    figure(BENCH, `${name}_peak_memory_mib`, r.peakPss / MIB, 'MiB'),
    figure(BENCH, `${name}_chromium_cpu_s`, r.cpuSeconds, 'CPU-s'),
    figure(
      BENCH,
      `${name}_stages_ms`,
      `headers ${t.loadMs.toFixed(0)}, graph ${(t.graphBuildMs[0] ?? 0).toFixed(0)}, session ${(t.sessionCreateMs[0] ?? 0).toFixed(0)}, forward ${(t.forwardMs[0] ?? 0).toFixed(0)}`,
      'ms',
    ),
    ...(r.notice ? [figure(BENCH, `${name}_notice`, r.notice, '')] : []),
  ];
}

async function readThrough(dir: string): Promise<void> {
  for (const name of await readdir(dir))
    for await (const chunk of createReadStream(path.join(dir, name), { highWaterMark: 2 ** 22 })) void chunk;
}

/** the big checkpoints, one at a time (each takes gigabytes of browser memory) */
export async function localCheckpoints(url: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const [repoId, r] of Object.entries(LOCAL_REPOS)) {
    const { weightBytes } = await generatedCheckpoint(r.dir, r.config, { seed: 1, shards: r.shards });
    const name = repoId.split('/')[1]!.replace(/-/g, '_');
    const preview = repoId === 'local/preview-s';
    // a hub serves from memory: the files are read once first, so a cold page cache of this
    // machine's disk (about 30 MB/s; preview-s took 42 s that way) is not counted as the download
    await readThrough(path.join(r.dir, 'transformer'));
    const runs = await measurePreview(url, TOKEN, repoId, { warm: preview });
    figures.push(
      figure(BENCH, `${name}_weight_bytes`, weightBytes, 'B'),
      ...runFigures(`${name}_cold`, runs.cold, weightBytes, preview),
    );
    if (runs.warm) figures.push(...runFigures(`${name}_warm`, runs.warm, weightBytes, preview));
    if (preview) {
      // int8 in the browser: the same float32 download, quantized in the worker as it arrives
      const int8 = await measurePreview(url, TOKEN, repoId, { weights: 'int8', warm: true });
      figures.push(
        ...runFigures(`${name}_int8_cold`, int8.cold, weightBytes, false),
        ...runFigures(`${name}_int8_warm`, int8.warm!, weightBytes, false),
      );
    }
  }
  return figures;
}

export default async function run(): Promise<Figure[]> {
  build();
  const server = await startServer();
  const figures: Figure[] = [];
  try {
    figures.push(...(await localCheckpoints(server.url)));
  } catch (e) {
    figures.push(figure(BENCH, 'local_checkpoints_error', String((e as Error).message), ''));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    // Node CPU (onnxruntime-node) on the same checkpoint from the same hub, same inputs
    const model = await ConsisIDTransformer3DModel.fromPretrained(REPO, {
      hubUrl: server.url,
      subfolder: 'transformer',
      device: 'cpu',
    });
    const spec = defaultSpec(model.config);
    const args = { ...forwardArgs(model.config, generateInputs(model.config, spec)), return_dict: true as const };
    let t = performance.now();
    const ref = await model.forward(args);
    const nodeFirst = performance.now() - t;
    const nodeTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      await model.forward(args);
      nodeTimes.push(performance.now() - t);
    }
    await model.release();
    const nodeMedian = median(nodeTimes);
    const shape = `latents ${ref.sample.shape.join('x')}, text ${spec.textLength} tokens, ${RUNS} timed runs after a first run`;
    figures.push(figure(BENCH, 'inputs', shape, ''));

    const context = await browser.newContext({ baseURL: server.url, acceptDownloads: true });
    const page = await context.newPage();
    await signInTo(page, TOKEN, `/preview?repo=${REPO}`);
    figures.push(
      figure(
        BENCH,
        'webgpu_adapter',
        (
          (await page
            .getByTestId('adapter-info')
            .textContent()
            .catch(() => null)) ?? 'none'
        ).replace(/^Adapter: /, ''),
        '',
      ),
    );
    await page.getByRole('button', { name: 'Inspect' }).click();
    await page.getByTestId('checkpoint-summary').waitFor();

    const perDevice: Record<string, number> = {};
    for (const device of ['webgpu', 'wasm'] as const) {
      await page.getByLabel('Provider', { exact: true }).selectOption(device);
      const first = await runOnce(page);
      if (first.provider !== device) throw new Error(`asked for ${device}, the page used ${first.provider}`);
      const err = relativeError(await download(page), ref.sample.data as Float32Array);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await runOnce(page)).timings.forwardMs[0]!);
      perDevice[device] = median(times);
      figures.push(
        figure(BENCH, `${device}_forward_ms_median`, median(times), 'ms'),
        figure(BENCH, `${device}_first_forward_ms`, first.timings.forwardMs[0]!, 'ms'),
        figure(BENCH, `${device}_graph_build_ms`, first.timings.graphBuildMs[0] ?? 0, 'ms'),
        figure(BENCH, `${device}_session_create_ms`, first.timings.sessionCreateMs[0] ?? 0, 'ms'),
        figure(BENCH, `${device}_rel_error_vs_node`, err, '', { op: '<=', value: 1e-3 }),
      );
    }
    figures.push(
      figure(BENCH, 'node_cpu_forward_ms_median', nodeMedian, 'ms'),
      figure(BENCH, 'node_cpu_first_forward_ms', nodeFirst, 'ms'),
      figure(BENCH, 'webgpu_vs_node_cpu', perDevice.webgpu! / nodeMedian, 'x slower'),
      figure(BENCH, 'wasm_vs_node_cpu', perDevice.wasm! / nodeMedian, 'x slower'),
    );
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
  return figures;
}
