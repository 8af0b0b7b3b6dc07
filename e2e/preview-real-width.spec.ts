// The preview at the released ConsisID's width (48 heads x 64, text_embed_dim 4096), from its own
// hub server serving generated folders:
// - the released config (42 layers) with its shard index and no weights: the page plans each
//   precision from config.json and the adapter's limits, shows what fits, and refuses the
//   checkpoint before any weight file is asked for;
// - 2 of its layers as bfloat16 shards (as the release publishes them), run on WebGPU (SwiftShader)
//   in int4 at a small latent size and compared with the Node path on the same folder; with
//   PREVIEW_REAL_WIDTH_WEIGHTS=float32, a float32 checkpoint run in float32. int4 runs in `npm test`
//   (1.7 minutes on an idle 2-core machine); PREVIEW_REAL_WIDTH=0 skips it. The status line is logged
//   every 15 s to show where a run is.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { formatBytes } from '../src/components/ui/format.ts';
import { heapCell } from '../src/features/preview/panels/fit-panel.tsx';
import { forwardArgs, generateInputs } from '../src/model/pipeline/inputs.ts';
import { defaultSpec, specShape as fitShape } from '../src/model/graph/input-spec.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { configFileBytes } from '../src/model/models/consisid/checkpoint-writer.ts';
import { planShards } from '../src/model/io/safetensors/shards.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { planFit, type AdapterCaps } from '../src/model/plan/fit.ts';
import { expectedParameters } from '../src/model/graph/parameters.ts';
import { CONSISID_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import { ConsisIDTransformer3DModel } from '../src/model/node.ts';
import { generatedCheckpoint } from '../src/model/test-support/generated-checkpoint.ts';
import { PRECISION_TOLERANCE } from '../src/model/test-support/fixtures.ts';
import { downloadedOutput, openPreview, startFolderHub } from './preview-support.ts';

// The config starts servers on E2E_PORT .. +3 (playwright.config.ts), preview-large takes +4: this spec the next.
const PORT = Number(process.env.E2E_PORT ?? 4790) + 5;
const RUN_REAL_WIDTH = process.env.PREVIEW_REAL_WIDTH !== '0';

const RELEASED = 'local/consisid-released';
const RELEASED_DIR = 'tmp/e2e-checkpoints/consisid-released';
const released = parseConfig(CONSISID_CONFIG);
/** the release's shard index: bfloat16 weights in 3 shards (none of them on this hub) */
const releasedShards = planShards(
  [...expectedParameters(released)].map(([name, shape]) => ({ name, dtype: 'bfloat16' as const, shape })),
  3,
);
const releasedBytes = [...expectedParameters(released).values()].reduce((s, d) => s + 2 * d.reduce((a, b) => a * b), 0);

const REAL_WIDTH = 'local/consisid-real-width';
const PRECISION = (process.env.PREVIEW_REAL_WIDTH_WEIGHTS ?? 'int4') as 'int4' | 'float32';
/** the real-width run's limit */
const RUN_MINUTES = PRECISION === 'float32' ? 30 : 10;
const REAL_WIDTH_DIR = `tmp/e2e-checkpoints/consisid-real-width${PRECISION === 'float32' ? '-f32' : ''}`;
/**
 * The released width and dims with 2 layers; without the identity module (its perceivers alone
 * would double the weights) and without learned positional embeddings, which pin the latent size
 * to the released 13 x 60 x 90 (rotary embeddings take any size).
 */
const REAL_WIDTH_CONFIG = {
  ...CONSISID_CONFIG,
  num_layers: 2,
  is_train_face: false,
  LFE_output_dim: undefined,
  use_learned_positional_embeddings: false,
};
/** 2 latent frames of 4 x 4 (8 patches) and 16 text tokens: the width is what this spec is about */
const SIZE = { frames: 2, height: 4, width: 4, textLength: 16 };

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const folder = `${RELEASED_DIR}/transformer`;
  mkdirSync(folder, { recursive: true });
  writeFileSync(`${folder}/config.json`, configFileBytes(CONSISID_CONFIG));
  writeFileSync(`${folder}/diffusion_pytorch_model.safetensors.index.json`, releasedShards.index!);
  const repos = [`${RELEASED}=${RELEASED_DIR}`];
  if (RUN_REAL_WIDTH) {
    await generatedCheckpoint(REAL_WIDTH_DIR, REAL_WIDTH_CONFIG, {
      seed: 11,
      shards: 2,
      dtype: PRECISION === 'float32' ? 'float32' : 'bfloat16',
    });
    repos.push(`${REAL_WIDTH}=${REAL_WIDTH_DIR}`);
  }
  server = await startFolderHub(PORT, repos);
});

test.afterAll(() => {
  server?.kill();
});

/** the page's adapter, as the page reads it */
const pageAdapter = (page: Page): Promise<AdapterCaps> =>
  page.evaluate(async () => {
    const a = (await navigator.gpu.requestAdapter())!;
    const { maxBufferSize, maxStorageBufferBindingSize } = a.limits;
    return {
      limits: { maxBufferSize, maxStorageBufferBindingSize },
      shaderF16: a.features.has('shader-f16'),
      subgroups: a.features.has('subgroups'),
      subgroupMinSize: (a.info as { subgroupMinSize?: number }).subgroupMinSize ?? null,
    };
  });

/** each row of the fit table as the page shows it, against the plan made here for the same adapter */
async function expectFitTable(page: Page, device: 'webgpu' | 'wasm', adapter: AdapterCaps | null) {
  const shape = fitShape(released, defaultSpec(released));
  for (const f of planFit(released, shape, device, adapter)) {
    const cells = page.getByTestId(`fit-${f.weights}`).locator('td');
    await expect(cells.nth(0)).toHaveText(formatBytes(f.weightBytes));
    await expect(cells.nth(1)).toHaveText(formatBytes(f.activationPeakBytes));
    await expect(cells.nth(2)).toHaveText(f.gpuBytes === null ? '—' : formatBytes(f.gpuBytes));
    await expect(cells.nth(3)).toHaveText(heapCell(f));
    await expect(cells.nth(4)).toHaveText(String(f.segments ?? '—'));
    await expect(cells.nth(5)).toHaveText(f.fits ? 'yes' : `no: ${f.reasons.join('; ')}`);
  }
}

test('the released config: each precision planned before downloading, refused before any weight request', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
  const page = await context.newPage();
  const weightRequests: string[] = [];
  page.on(
    'request',
    (r) => void (/\.safetensors(\?|$)/.test(new URL(r.url()).pathname) && weightRequests.push(r.url())),
  );
  await openPreview(page, RELEASED, 'webgpu');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('checkpoint-refused')).toContainText(
    /^No weight precision of this checkpoint fits this WebGPU adapter's limits or the 4 GiB WASM heap at 13 latent frames of 60 x 90/,
  );
  const download = `about ${formatBytes(releasedBytes)} (the shard index's total_size)`;
  await expect(page.getByTestId('download-bytes')).toHaveText(download);
  await expect(page.getByTestId('download-size')).toHaveText(download);
  await expect(page.getByTestId('param-count')).toHaveText((releasedBytes / 2).toLocaleString('en'));
  // SwiftShader: attention decomposed (4-lane subgroups), whose probabilities no 1 GiB binding holds
  await expectFitTable(page, 'webgpu', await pageAdapter(page));
  await expect(page.getByTestId('fit-limits')).toContainText('maxStorageBufferBindingSize 1.1 GB');
  await page.getByLabel('Provider', { exact: true }).selectOption('wasm');
  await expectFitTable(page, 'wasm', null);
  // nothing to download or run, and no weight file was asked for (not even a header)
  await expect(page.getByRole('button', { name: /^Download / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run forward pass' })).toHaveCount(0);
  expect(weightRequests).toEqual([]);
  await context.close();
});

test('the real width (48 x 64, 2 layers) runs on WebGPU in int4 (or float32) and matches the Node path', async ({
  browser,
}) => {
  test.skip(!RUN_REAL_WIDTH, 'PREVIEW_REAL_WIDTH=0 skips the real-width preview');
  test.setTimeout(RUN_MINUTES * 60_000);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}`, acceptDownloads: true });
  const page = await context.newPage();
  await openPreview(page, REAL_WIDTH, 'webgpu');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('config-summary')).toContainText('48');
  await page.getByLabel('Weights').selectOption(PRECISION);
  await page.getByLabel('Latent frames').fill(String(SIZE.frames));
  await page.getByLabel('Latent height').fill(String(SIZE.height));
  await page.getByLabel('Latent width').fill(String(SIZE.width));
  await page.getByLabel('Text length').fill(String(SIZE.textLength));
  // planned for this adapter at this size before anything downloads: it fits
  await expect(page.getByTestId(`fit-${PRECISION}`).locator('td').last()).toHaveText('yes');
  const t0 = Date.now();
  const status = setInterval(
    () =>
      void page
        .getByTestId('preview-status')
        .textContent({ timeout: 1000 })
        .then((t) => console.log(`${((Date.now() - t0) / 1000).toFixed(0)} s: ${t}`))
        .catch(() => undefined),
    15_000,
  );
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  const used = page.getByTestId('provider-used');
  await expect(used.or(page.getByTestId('preview-error'))).toBeVisible({ timeout: (RUN_MINUTES - 2) * 60_000 });
  clearInterval(status);
  console.log(`real width, ${PRECISION}: the page's first forward took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  await expect(used).toHaveText('webgpu');

  const model = await ConsisIDTransformer3DModel.fromPretrained(`${REAL_WIDTH_DIR}/transformer`, { device: 'cpu' });
  const inputs = generateInputs(model.config, { ...defaultSpec(model.config), ...SIZE });
  const ref = await model.forward({ ...forwardArgs(model.config, inputs), return_dict: true });
  await model.release();
  const out = await downloadedOutput(page);
  expect(out.shape).toEqual(ref.sample.shape);
  expect(relativeError(out.data, ref.sample.data as Float32Array)).toBeLessThanOrEqual(
    PRECISION === 'float32' ? 1e-3 : PRECISION_TOLERANCE.int4,
  );
  await context.close();
});
