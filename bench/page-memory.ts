// `npm run bench -- page-memory`: the model preview page's memory in Chromium while it loads a
// checkpoint of the released width on WebGPU in int4 (issue 23: the page's JavaScript + WASM under
// 1.5 GB whatever the model size). The config's checkpoint is generated on disk (bfloat16 shards,
// as released; the learned positional table sized to the forward's latents, bench/gpu-memory.ts),
// served by the mock hub with Range requests, and opened in headless Chromium (SwiftShader WebGPU)
// with a profile on disk (OPFS holds the converted weights, as in a user's browser). The page
// streams, converts into OPFS and makes each segment's session; the forward runs when asked.
// Sampled all along: the page's JS + WASM, its worker included, with
// performance.measureUserAgentSpecificMemory() (the page is cross-origin isolated), and the PSS and
// RSS of every Chromium process by kind (renderer, GPU process, browser, others) from /proc.
//   PAGE_MEMORY_CONFIGS=fullwidth-2 (default; consisid: the 42 layers, about 25 minutes here),
//   PAGE_MEMORY_FORWARD=0 (sessions only: stop once the last segment's session is made),
//   PAGE_MEMORY_HEAP_BUDGET (bytes of one segment's weights, the page's ?segmentHeap=; default the page's),
//   PAGE_MEMORY_CHECKPOINT_DIR (keep and reuse the generated checkpoint there), PAGE_MEMORY_TRACE (a
//   folder for each run's every reading, JSON), PAGE_MEMORY_LIMIT_S (default 1800 a run).
import { chromium, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumArgs } from '../playwright.config.ts';
import { TOKENS } from '../src/mock-hub/seed/users.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { parseShapeSpec } from '../src/model/cli/shape-spec.ts';
import { generatedCheckpoint } from '../src/model/test-support/generated-checkpoint.ts';
import { processKinds, usage, type ProcessKind } from './browser-processes.ts';
import { figure, type Figure } from './figure.ts';
import { gpuConfig } from './gpu-configs.ts';
import { sizedToLatents } from './gpu-memory.ts';
import {
  byKind,
  finalFigures,
  pageMemory,
  pageMemoryFigures,
  stageOf,
  stagePeaks,
  STAGES,
  type MeasureMemoryResult,
  type PageMemory,
  type ProcessMemory,
  type Reading,
} from './page-memory-report.ts';
import { signInTo } from './preview-checkpoint.ts';
import { build, startServer } from './preview.ts';

const BENCH = 'page-memory';
/** one latent frame of 4 x 4, one text token, 9 ViT tokens: the least forward (bench/gpu-memory.ts) */
const SHAPE = 'frames=1,height=4,width=4,text=1,vit=9';
const PAGE_EVERY_MS = 2000;
const PROCESS_EVERY_MS = 250;
const STATUS_EVERY_MS = 500;
const LIMIT_S = Number(process.env.PAGE_MEMORY_LIMIT_S ?? 1800);
/** readings kept once the sessions are made, with no forward: the memory they settle at */
const SETTLE_MS = 6000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (b: number) => b / 2 ** 20;

interface Trace {
  page: Reading<PageMemory>[];
  processes: Reading<ProcessMemory>[];
  /** every status line the page showed, with when it first showed it */
  statuses: { t: number; status: string }[];
  /** seconds each page reading took (a busy worker answers late) */
  pageMeasureS: number[];
}

/** the page's agent's memory; it collects garbage first (ForceEagerMeasureMemory: at once, not at the next GC) */
const measurePage = (page: Page) =>
  page.evaluate(
    async () =>
      (await (
        performance as Performance & { measureUserAgentSpecificMemory(): Promise<unknown> }
      ).measureUserAgentSpecificMemory()) as MeasureMemoryResult,
  );

async function processMemory(pids: Map<number, ProcessKind>): Promise<ProcessMemory> {
  return byKind([...(await usage([...pids.keys()]))].map(([pid, u]) => ({ ...u, kind: pids.get(pid)! })));
}

/** samples the run until `done` says it is over; the trace so far, whatever ends it */
async function sampleRun(page: Page, profile: string, done: (stage: string) => boolean, trace: Trace): Promise<void> {
  const t0 = performance.now();
  const now = () => (performance.now() - t0) / 1000;
  let stage: string = STAGES.idle;
  let over = false;
  let pids = await processKinds(profile);
  const loops = [
    (async () => {
      while (!over) {
        const status =
          (await page
            .getByTestId('preview-status')
            .textContent({ timeout: 5000 })
            .catch(() => null)) ?? '';
        if (status && trace.statuses.at(-1)?.status !== status) {
          trace.statuses.push({ t: now(), status });
          stage = stageOf(status, stage);
          console.error(`# ${BENCH}: ${now().toFixed(0)} s: ${status}`);
        }
        const failed = await page.getByTestId('preview-error').count();
        if (failed) throw new Error(`the page reported: ${await page.getByTestId('preview-error').textContent()}`);
        if (done(stage) || now() > LIMIT_S) over = true;
        await sleep(STATUS_EVERY_MS);
      }
    })(),
    (async () => {
      for (let i = 0; !over; i++) {
        if (i % 8 === 0) pids = await processKinds(profile);
        trace.processes.push({ t: now(), stage, value: await processMemory(pids) });
        await sleep(PROCESS_EVERY_MS);
      }
    })(),
    (async () => {
      while (!over) {
        const t = now();
        const s = stage;
        const m = await measurePage(page);
        trace.pageMeasureS.push(now() - t);
        trace.page.push({ t, stage: s, value: pageMemory(m) });
        await sleep(PAGE_EVERY_MS);
      }
    })(),
  ];
  try {
    await Promise.all(loops);
  } finally {
    over = true;
    await Promise.allSettled(loops);
  }
}

/** the page, signed in, with the checkpoint inspected at the least latent size in int4 on WebGPU: what the page plans */
async function openPreview(page: Page, repoId: string, heapBudget: string | undefined): Promise<Figure[]> {
  const query = `provider=webgpu&weights=int4${heapBudget ? `&segmentHeap=${heapBudget}` : ''}`;
  await signInTo(page, TOKENS.aliceWrite, `/preview?repo=${encodeURIComponent(repoId)}&${query}`);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await page.getByTestId('checkpoint-summary').waitFor({ timeout: 120_000 });
  await page.getByLabel('Weights').selectOption('int4');
  // the least size the page allows: a learned positional table pins the latent size and the text length
  const fields = {
    frames: 'Latent frames',
    height: 'Latent height',
    width: 'Latent width',
    text: 'Text length',
    vit: 'ViT tokens per identity scale',
  };
  const least = new Map(SHAPE.split(',').map((kv) => kv.split('=') as [string, string]));
  const used: string[] = [];
  for (const [key, label] of Object.entries(fields)) {
    const field = page.getByLabel(label);
    if (!(await field.count())) continue;
    const min = Number((await field.getAttribute('min')) ?? 0);
    if (await field.isEnabled()) await field.fill(String(Math.max(min, Number(least.get(key)))));
    used.push(`${key}=${await field.inputValue()}`);
  }
  const cells = page.getByTestId('fit-int4').locator('td');
  // the plan for this adapter at this size, before anything downloads (its last cell: "yes", or why not)
  await cells
    .last()
    .filter({ hasText: /^(yes|no)/ })
    .waitFor({ timeout: 900_000 })
    .catch(async () => {
      const panel = await page.locator('main').innerText();
      throw new Error(`no int4 plan in 900 s; the page reads: ${panel.replace(/\s+/g, ' ').slice(0, 3000)}`);
    });
  const [weights, , gpu, , segments, fits] = await cells.allTextContents();
  if (fits !== 'yes') throw new Error(`the page does not plan int4 on this adapter: ${fits}`);
  return [
    figure(BENCH, `${repoId} inputs`, used.join(','), ''),
    figure(BENCH, `${repoId} plan: converted weights`, weights ?? '', ''),
    figure(BENCH, `${repoId} plan: GPU memory`, gpu ?? '', ''),
    figure(BENCH, `${repoId} plan: segments`, Number(segments), ''),
  ];
}

/** one checkpoint through the page: its figures (and its trace into PAGE_MEMORY_TRACE) */
async function measureConfig(name: string, url: string): Promise<Figure[]> {
  const repoId = `local/${name}`;
  const forward = process.env.PAGE_MEMORY_FORWARD !== '0';
  const profile = mkdtempSync(path.join(tmpdir(), 'page-memory-profile-'));
  const trace: Trace = { page: [], processes: [], statuses: [], pageMeasureS: [] };
  const figures: Figure[] = [];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // a reading at once, not at the next garbage collection (which may be minutes away)
    args: [...chromiumArgs, '--enable-blink-features=ForceEagerMeasureMemory'],
    baseURL: url,
  });
  let settledAt: number | null = null;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    figures.push(...(await openPreview(page, repoId, process.env.PAGE_MEMORY_HEAP_BUDGET)));
    if (!(await page.evaluate(() => crossOriginIsolated))) throw new Error('the page is not cross-origin isolated');
    await page.getByRole('button', { name: 'Run forward pass' }).click();
    const t0 = performance.now();
    await sampleRun(
      page,
      profile,
      (stage) => {
        if (stage === STAGES.done) return true;
        if (forward || stage !== STAGES.forward) return false;
        settledAt ??= performance.now();
        return performance.now() - settledAt > SETTLE_MS;
      },
      trace,
    );
    const wall = (performance.now() - t0) / 1000;
    const last = trace.statuses.at(-1)?.status ?? '';
    figures.push(figure(BENCH, `${name} run`, `${wall.toFixed(0)} s, last status: ${last}`, ''));
    if (forward && !/^Model loaded/.test(last))
      figures.push(figure(BENCH, `${name} forward`, `not finished in ${LIMIT_S} s`, ''));
    if (await page.getByTestId('provider-used').count())
      figures.push(figure(BENCH, `${name} ran on`, (await page.getByTestId('provider-used').textContent()) ?? '', ''));
    const opfs = spawnSync('du', ['-sb', profile], { encoding: 'utf8' }).stdout.split('\t')[0];
    figures.push(figure(BENCH, `${name} Chromium profile on disk after the run (OPFS)`, mib(Number(opfs)), 'MiB'));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  const measureS = [...trace.pageMeasureS].sort((a, b) => a - b);
  figures.push(
    figure(BENCH, `${name} page readings`, trace.page.length, ''),
    figure(
      BENCH,
      `${name} page reading time, median / max`,
      `${(measureS[measureS.length >> 1] ?? 0).toFixed(2)} / ${(measureS.at(-1) ?? 0).toFixed(2)}`,
      's',
    ),
    ...pageMemoryFigures(BENCH, name, stagePeaks(trace.page, trace.processes)),
    ...finalFigures(BENCH, name, trace.page.at(-1), trace.processes.at(-1)),
  );
  const traces = process.env.PAGE_MEMORY_TRACE;
  if (traces) writeFileSync(path.join(traces, `${name}.json`), JSON.stringify(trace));
  return figures;
}

export default async function run(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const name of (process.env.PAGE_MEMORY_CONFIGS ?? 'fullwidth-2').split(',').filter(Boolean)) {
    const c = gpuConfig(name);
    const config = sizedToLatents(c.config, SHAPE);
    parseShapeSpec(SHAPE, parseConfig(config, name));
    const keep = process.env.PAGE_MEMORY_CHECKPOINT_DIR;
    const dir = keep ?? (await mkdtemp(path.join(tmpdir(), `page-memory-${name}-`)));
    try {
      const t = performance.now();
      const { weightBytes } = await generatedCheckpoint(dir, config, { seed: 42, dtype: c.dtype, shards: c.shards });
      figures.push(
        figure(BENCH, `${name} checkpoint (${c.dtype}, ${c.shards} shards)`, mib(weightBytes), 'MiB'),
        figure(BENCH, `${name} checkpoint generation (or reuse)`, (performance.now() - t) / 1000, 's'),
      );
      build();
      const server = await startServer({ [`local/${name}`]: dir });
      try {
        figures.push(...(await measureConfig(name, server.url)));
      } finally {
        await server.close();
      }
    } catch (e) {
      figures.push(figure(BENCH, `${name} error`, String((e as Error).message), ''));
    } finally {
      if (!keep) await rm(dir, { recursive: true, force: true });
    }
  }
  return figures;
}
