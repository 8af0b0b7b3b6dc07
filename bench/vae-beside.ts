// `npm run bench -- vae-beside`: the preview page's Decode beside the transformer's sessions, or
// after releasing them, in Chromium on WASM. A generated checkpoint (a transformer of a few hundred
// MB in float32 and a VAE whose decode needs a few hundred more) is served by the mock hub; the page
// runs a forward pass, then decodes its latents, twice in fresh browsers: with the page's budget
// (the decode fits beside the held sessions) and with ?decodeBudget= set between the decode's need
// alone and beside them (the sessions are released first). The page's JS + WASM
// (measureUserAgentSpecificMemory) after the run and after the decode tells what the release saves.
//   VAE_BESIDE_LAYERS (16: the transformer's layers), VAE_BESIDE_PORT (5198: its hub).
import { chromium, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { webgpuLaunch } from '../playwright.config.ts';
import { TOKENS } from '../src/mock-hub/seed/users.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { PREVIEW_S_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import { DEMO_VAE_CONFIG } from '../src/model/models/consisid/demo-checkpoints.ts';
import { randomVaeFiles } from '../src/model/models/vae/random-vae.ts';
import { planFit } from '../src/model/plan/fit.ts';
import { defaultSpec, specShape } from '../src/model/graph/input-spec.ts';
import { planPreviewDecode } from '../src/model/pipeline/decode-preview.ts';
import { generatedCheckpoint } from '../src/model/test-support/generated-checkpoint.ts';
import { figure, type Figure } from './figure.ts';
import { pageMemory, type MeasureMemoryResult } from './page-memory-report.ts';
import { signInTo } from './preview-checkpoint.ts';

const BENCH = 'vae-beside';
const LAYERS = Number(process.env.VAE_BESIDE_LAYERS ?? 16);
const PORT = Number(process.env.VAE_BESIDE_PORT ?? 5198);
const REPO = 'local/consisid-beside';
const DIR = 'tmp/bench-checkpoints/consisid-beside';
const CONFIG = { ...PREVIEW_S_CONFIG, num_layers: LAYERS, is_train_face: false, LFE_output_dim: undefined };
/** the demo VAE's geometry, wider: its decode of 2 x 16 x 16 latents needs about 400 MB of page */
const VAE = { ...DEMO_VAE_CONFIG, block_out_channels: [32, 32, 64, 64], latent_channels: CONFIG.out_channels };
/** the latents the page runs at: its default spec at 16 x 16 */
const SIZE = { height: 16, width: 16 };

const mb = (b: number) => Number((b / 1e6).toFixed(0));

/** the page's agent's JS + WASM, its workers included (collected first) */
const measure = async (page: Page) =>
  pageMemory(
    await page.evaluate(
      async () =>
        (await (
          performance as Performance & { measureUserAgentSpecificMemory(): Promise<unknown> }
        ).measureUserAgentSpecificMemory()) as MeasureMemoryResult,
    ),
  ).total;

async function startHub(): Promise<() => void> {
  const args = ['--import', 'tsx', 'scripts/serve.ts', '--port', String(PORT), '--fresh', '--repo', `${REPO}=${DIR}`];
  const server = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return () => server.kill();
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill();
  throw new Error('the hub did not answer');
}

/** one fresh browser: run, then decode; the page's memory after each and what the page said */
async function runThenDecode(budgetBytes: number | null) {
  const browser = await chromium.launch(webgpuLaunch);
  try {
    const page = await (await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` })).newPage();
    const budget = budgetBytes ? `&decodeBudget=${budgetBytes}` : '';
    await signInTo(
      page,
      TOKENS.aliceWrite,
      `/preview?repo=${encodeURIComponent(REPO)}&provider=wasm&weights=float32${budget}`,
    );
    await page.getByRole('button', { name: 'Inspect' }).click();
    await page.getByLabel('Latent height').fill(String(SIZE.height));
    await page.getByLabel('Latent width').fill(String(SIZE.width));
    const fitLine = await page.getByTestId('fit-vae').filter({ hasText: 'It ' }).textContent({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Run forward pass' }).click();
    await page.getByTestId('provider-used').waitFor({ timeout: 900_000 });
    const afterRun = await measure(page);
    const t0 = performance.now();
    await page.getByRole('button', { name: 'Decode', exact: true }).click();
    await page
      .getByTestId('decode-status')
      .filter({ hasText: /^Decoded/ })
      .waitFor({ timeout: 900_000 });
    const decodeS = (performance.now() - t0) / 1000;
    const afterDecode = await measure(page);
    const notice = (await page.getByTestId('preview-notice').count())
      ? await page.getByTestId('preview-notice').textContent()
      : null;
    // the next run: its session made again where the decode released it
    const t1 = performance.now();
    await page.getByRole('button', { name: 'Run forward pass' }).click();
    await page
      .getByTestId('decode-status')
      .filter({ hasText: /^Decode the latents/ })
      .waitFor();
    await page
      .getByTestId('preview-status')
      .filter({ hasText: /^Model loaded/ })
      .waitFor({ timeout: 900_000 });
    const nextRunS = (performance.now() - t1) / 1000;
    return { fitLine, afterRun, afterDecode, decodeS, notice, afterNextRun: await measure(page), nextRunS };
  } finally {
    await browser.close();
  }
}

export default async function bench(): Promise<Figure[]> {
  const { weightBytes } = await generatedCheckpoint(DIR, CONFIG, { seed: 7, shards: 2 });
  for (const f of randomVaeFiles(VAE, { seed: 3, prefix: 'vae' })) {
    mkdirSync(path.dirname(path.join(DIR, f.path)), { recursive: true });
    writeFileSync(path.join(DIR, f.path), f.bytes);
  }
  const config = parseConfig(CONFIG);
  const spec = { ...defaultSpec(config), ...SIZE };
  const held = planFit(config, specShape(config, spec), 'wasm', null).find((f) => f.weights === 'float32')!.heapBytes;
  const need = planPreviewDecode(VAE, [1, spec.frames, config.out_channels, spec.height, spec.width], 'wasm').needBytes;
  const stop = await startHub();
  const out: Figure[] = [
    figure(BENCH, `transformer: ${LAYERS} layers, float32 weights`, mb(weightBytes), 'MB'),
    figure(BENCH, 'transformer: planned WASM heap at once (held beside the decode)', mb(held), 'MB'),
    figure(BENCH, 'decode: planned page need (weights + one batch, untiled)', mb(need), 'MB'),
  ];
  try {
    // the page's budget; one whose room beside the held sessions takes the decode in tiles; one the
    // untiled decode fits alone but not beside them (the transformer holds more than it)
    if (held <= need) throw new Error(`the transformer holds ${held} B, not more than the decode's ${need} B`);
    const arms = [
      ['beside', null],
      ['beside, tiled', Math.round(need + held / 2)],
      ['released', Math.round(need + 1e6)],
    ] as const;
    for (const [label, budget] of arms) {
      const r = await runThenDecode(budget);
      console.error(`# ${BENCH} ${label}: ${JSON.stringify(r)}`);
      out.push(
        figure(BENCH, `${label}: fit panel`, r.fitLine ?? '', ''),
        figure(BENCH, `${label}: page JS + WASM after the run`, mb(r.afterRun), 'MB'),
        figure(BENCH, `${label}: page JS + WASM after the decode`, mb(r.afterDecode), 'MB'),
        figure(BENCH, `${label}: decode`, Number(r.decodeS.toFixed(1)), 's'),
        figure(BENCH, `${label}: page JS + WASM after the next run`, mb(r.afterNextRun), 'MB'),
        figure(BENCH, `${label}: the next run`, Number(r.nextRunS.toFixed(1)), 's'),
        figure(BENCH, `${label}: notice`, r.notice ?? 'none', ''),
      );
    }
  } finally {
    stop();
  }
  return out;
}
