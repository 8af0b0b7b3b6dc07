// `npm run bench -- vae-page`: the VAE decode in Chromium: the library's decoder in a page
// (e2e/vae-page-support.ts) on WASM and on WebGPU (SwiftShader where there is no GPU), a generated
// decoder of the released size, the preview's latents in the tiles chooseVaeTiling picks for the
// device's page budget, the first batches only: seconds per batch, the projected decode, and the
// page's JS + WASM after them (measureUserAgentSpecificMemory; WASM memory never shrinks, so this
// holds its peak), against the page's 1.5 GB target. On WebGPU also the GPU buffers onnxruntime made
// per batch against the plan's count (weights + activation peak), and the GPU process's RSS before,
// during (peak) and after the decode (on SwiftShader the buffers are its host memory). One browser
// per run; WASM runs at each thread count in turn, round after round (alternating), then each
// count's median and spread of batch 1.
// VAE_PAGE_CONFIG=released|small|<config.json>, VAE_PAGE_LATENTS=<frames>x<height>x<width> (13x30x44),
// VAE_PAGE_DEVICES (wasm,webgpu), VAE_PAGE_BATCHES (1), VAE_PAGE_THREADS (WASM thread counts, 1),
// VAE_PAGE_ROUNDS (1), VAE_PAGE_RUN_TIMEOUT_S (3600: one decode's limit), VAE_PAGE_PORT (5199: the page server).
import { chromium, type Browser, type Page } from '@playwright/test';
import { loadavg } from 'node:os';
import { webgpuLaunch } from '../playwright.config.ts';
import { decodeWithPage, startVaePageServer, type VaePageServer } from '../e2e/vae-page-support.ts';
import type { PageProgress } from '../e2e/vae-page-entry.ts';
import { parseVaeConfig, type VaeConfig } from '../src/model/models/vae/config.ts';
import { chooseVaeTiling, VAE_PAGE_BUDGET, type VaeTilingChoice } from '../src/model/models/vae/plan.ts';
import { tileGeometry } from '../src/model/models/vae/tiling.ts';
import { readVaeConfigArg } from '../src/model/models/vae/vae-folder.ts';
import { rssByKind, watchRss, type RssByKind } from './chromium-rss.ts';
import { figure, median, type Figure } from './figure.ts';
import { vaeFolder } from './vae.ts';

const CONFIG = process.env.VAE_PAGE_CONFIG ?? 'released';
const LATENTS = process.env.VAE_PAGE_LATENTS ?? '13x30x44';
const DEVICES = (process.env.VAE_PAGE_DEVICES ?? 'wasm,webgpu').split(',') as ('wasm' | 'webgpu')[];
const BATCHES = Number(process.env.VAE_PAGE_BATCHES ?? 1);
const THREADS = (process.env.VAE_PAGE_THREADS ?? '1').split(',').map(Number);
const ROUNDS = Number(process.env.VAE_PAGE_ROUNDS ?? 1);
const PORT = Number(process.env.VAE_PAGE_PORT ?? 5199);
/** one decode's limit: past it the run is stopped and counted as such, and the next one runs */
const RUN_LIMIT_S = Number(process.env.VAE_PAGE_RUN_TIMEOUT_S ?? 3600);
/** the page's JS + WASM target */
const PAGE_TARGET_MB = 1500;
const B = 'vae-page';
const MB = (bytes: number) => bytes / 1e6;
const MiB = (bytes: number) => bytes / 2 ** 20;

class RunStopped extends Error {
  constructor(readonly seconds: number) {
    super(`stopped after ${seconds} s`);
  }
}

interface Run {
  device: 'wasm' | 'webgpu';
  threads: number;
  plan: VaeTilingChoice;
  data: number[];
  dims: number[];
}

/** one decode in a fresh browser: its figures, and batch 1's seconds */
async function decodeOnce(server: VaePageServer, run: Run): Promise<{ figures: Figure[]; first: number }> {
  const { device, threads, plan } = run;
  const at = `${device}${device === 'wasm' ? ` ${threads} thread${threads > 1 ? 's' : ''}` : ''}`;
  const browser = await chromium.launch(webgpuLaunch);
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error(`# ${at}: page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') console.error(`# ${at}: page ${m.type()}: ${m.text()}`);
    });
    await page.goto(server.url);
    const before = await rssByKind(browser);
    const watch = watchRss(browser);
    const started = Date.now();
    const progress = setInterval(() => void showProgress(browser, page, at, started), 60_000);
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RunStopped(RUN_LIMIT_S)), RUN_LIMIT_S * 1000);
    });
    const decoded = decodeWithPage(page, server, {
      device,
      threads,
      latents: { data: run.data, dims: run.dims },
      tile: plan.decode.tile,
      ...(plan.decode.tileSize ? { tileSize: plan.decode.tileSize } : {}),
      batches: BATCHES,
      maxSessions: plan.maxSessions,
    });
    const r = await Promise.race([decoded, stopped]).finally(() => {
      clearInterval(progress);
      clearTimeout(timer);
    });
    const peak = await watch.stop();
    const after = await rssByKind(browser);
    if (threads > 1 && !r.isolated) throw new Error('the page is not cross-origin isolated: no WASM threads');
    const ran = r.batchSeconds.reduce((s, x) => s + x, 0);
    const figures = [
      ...r.batchSeconds.map((s, i) => figure(B, `${at}: batch ${i + 1} of ${r.total}`, s, 's')),
      figure(B, `${at}: decode (projected)`, ran + (r.total - r.batchSeconds.length) * r.batchSeconds.at(-1)!, 's'),
      figure(B, `${at}: load average (1 min) after the decode`, loadavg()[0]!, ''),
      figure(B, `${at}: page JS + WASM`, MB(r.pageBytes), 'MB', { op: '<', value: PAGE_TARGET_MB }),
      ...(['gpu', 'renderer'] as const).map((kind) =>
        figure(
          B,
          `${at}: ${kind} RSS before / peak / after`,
          [before, peak, after].map((x) => MB(x[kind] ?? 0).toFixed(0)).join(' / '),
          'MB',
        ),
      ),
    ];
    if (r.gpuBuffers) {
      const planned = plan.weightBytes + plan.activationPeakBytes.webgpu;
      r.gpuBuffers.batchStoragePeak.forEach((bytes, i) =>
        figures.push(
          figure(B, `${at}: batch ${i + 1} GPU storage buffers (peak live)`, MiB(bytes), 'MiB'),
          figure(B, `${at}: batch ${i + 1} measured / planned buffer bytes`, bytes / planned, 'x'),
          figure(
            B,
            `${at}: batch ${i + 1} GPU buffers with staging (peak live)`,
            MiB(r.gpuBuffers!.batchPeak[i]!),
            'MiB',
          ),
        ),
      );
      figures.push(
        figure(B, `${at}: GPU buffers live after the batches`, MiB(r.gpuBuffers.liveAfter), 'MiB'),
        figure(B, `${at}: GPU buffers made (${r.gpuBuffers.made}), bytes`, MiB(r.gpuBuffers.madeBytes), 'MiB'),
      );
    }
    // each run's figures as they come: a later run may pass the bench's limit
    for (const f of figures) console.error(`# ${JSON.stringify(f)}`);
    return { figures, first: r.batchSeconds[0] ?? NaN };
  } finally {
    await browser.close();
  }
}

/** a line on stderr each minute of a decode: what the page has done, and the GPU process's RSS */
async function showProgress(browser: Browser, page: Page, at: string, started: number): Promise<void> {
  const [p, rss] = await Promise.all([
    page
      .evaluate(() => (globalThis as { vaePageProgress?: () => PageProgress }).vaePageProgress?.())
      .catch(() => undefined),
    rssByKind(browser).catch(() => ({}) as RssByKind),
  ]);
  const mib = (x: number | null | undefined) => (x == null ? '-' : MiB(x).toFixed(1));
  console.error(
    `# ${at} at ${((Date.now() - started) / 1000).toFixed(0)} s: batches ${JSON.stringify(p?.batchSeconds ?? [])},` +
      ` GPU buffers live ${mib(p?.gpuLive)} MiB (storage peak ${mib(p?.gpuStoragePeak)}, ${p?.gpuMade ?? '-'} made, ${mib(p?.gpuMadeBytes)} MiB),` +
      ` RSS gpu ${MB(rss.gpu ?? 0).toFixed(0)} MB, renderer ${MB(rss.renderer ?? 0).toFixed(0)} MB,` +
      ` load ${loadavg()[0]!.toFixed(1)}`,
  );
}

function planFigures(config: VaeConfig, device: 'wasm' | 'webgpu', dims: number[], label: string) {
  const plan = chooseVaeTiling(config, dims, undefined, VAE_PAGE_BUDGET[device]);
  const tile = plan.decode.tileSize ? tileGeometry(config, plan.decode.tileSize).latent.join('x') : 'untiled';
  const what = `${device}: ${label}, latents ${dims.join('x')}, tiles ${tile} latents (${plan.tiles})`;
  const figures = [figure(B, `${what}: plan need (weights + one batch)`, MiB(plan.needBytes), 'MiB')];
  if (device === 'webgpu')
    figures.push(
      figure(
        B,
        `${device}: plan weights / activation peak per batch`,
        `${MiB(plan.weightBytes).toFixed(1)} / ${MiB(plan.activationPeakBytes.webgpu).toFixed(1)}`,
        'MiB',
      ),
    );
  return { plan, figures };
}

export default async function bench(): Promise<Figure[]> {
  const { raw, label } = await readVaeConfigArg(CONFIG);
  const config = parseVaeConfig(raw);
  const [frames, height, width] = LATENTS.split('x').map(Number) as [number, number, number];
  const dims = [1, frames, config.latent_channels, height, width];
  const data = Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.7311) * 0.8);
  const { dir } = await vaeFolder(raw);
  const server = await startVaePageServer(PORT, dir);
  const out: Figure[] = [];
  try {
    for (const device of DEVICES) {
      const { plan, figures } = planFigures(config, device, dims, label);
      out.push(...figures);
      const counts = device === 'wasm' ? THREADS : [1];
      const firsts = new Map<number, number[]>(counts.map((t) => [t, []]));
      for (let round = 0; round < ROUNDS; round++)
        for (const threads of counts) {
          const at = `${device} ${threads} thread(s), round ${round + 1}`;
          const r = await decodeOnce(server, { device, threads, plan, data, dims }).catch((e: unknown) => {
            if (!(e instanceof RunStopped)) throw e;
            console.error(`# ${at}: ${e.message}`);
            return { figures: [figure(B, `${at}: decode`, e.message, '')], first: NaN };
          });
          out.push(...r.figures);
          if (!Number.isNaN(r.first)) firsts.get(threads)!.push(r.first);
        }
      if (ROUNDS > 1)
        for (const [threads, xs] of [...firsts].filter(([, x]) => x.length))
          out.push(
            figure(
              B,
              `${device} ${threads} thread(s): batch 1 median (min-max of ${xs.length})`,
              `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`,
              's',
            ),
          );
    }
  } finally {
    server.close();
  }
  return out;
}
