// Model preview on a checkpoint of over 500 MB, generated at test time into an ignored folder and
// served as a hub repo by `npm start -- --repo owner/name=folder` (its own server): the weights
// stream from the hub into a WASM session chunk by chunk, each byte requested once, and the output
// matches the Node path on the same folder.
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { ConsisIDTransformer3DModel } from '../src/model/node.ts';
import { PREVIEW_S_CONFIG } from '../src/model/models/consisid/named-configs.ts';
import { generatedCheckpoint } from '../src/model/test-support/generated-checkpoint.ts';
import { forwardArgs, generateInputs } from '../src/model/pipeline/inputs.ts';
import { defaultSpec } from '../src/model/graph/input-spec.ts';
import { relativeError } from '../src/model/io/tensor.ts';
import { downloadedOutput, openPreview, startFolderHub } from './preview-support.ts';

// The config starts servers on E2E_PORT .. +3 (playwright.config.ts): this spec takes the next port.
const PORT = Number(process.env.E2E_PORT ?? 4790) + 4;
const REPO = 'local/consisid-large';
// 20 layers of 8 heads x 64 without the identity module: 517 MB of float32 weights in 2 shards
const CONFIG = { ...PREVIEW_S_CONFIG, num_layers: 20, is_train_face: false, LFE_output_dim: undefined };
const DIR = 'tmp/e2e-checkpoints/consisid-large';
/** requests for the checkpoint's weight shards */
const SHARD = /\/transformer\/diffusion_pytorch_model-\d+-of-\d+\.safetensors$/;
/** the bytes a Range header asks for (NaN without one) */
const rangeBytes = (range: string | undefined): number => {
  const m = /bytes=(\d+)-(\d+)/.exec(range ?? '');
  return m ? Number(m[2]) - Number(m[1]) + 1 : NaN;
};
/** a Range request for a whole chunk, not a header's few bytes */
const isChunk = (range: string | undefined): boolean => rangeBytes(range) > 1e6;

let server: ChildProcess | undefined;
let weightBytes = 0;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  ({ weightBytes } = await generatedCheckpoint(DIR, CONFIG, { seed: 7, shards: 2 }));
  server = await startFolderHub(PORT, [`${REPO}=${DIR}`]);
});

test.afterAll(() => {
  server?.kill();
});

test('a download stopped part way keeps its chunks: the page then offers only the rest', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
  const page = await context.newPage();
  // three 64 MiB chunks come through, then the hub goes quiet until the test ends
  let chunks = 0;
  let quiet: () => void = () => undefined;
  const ended = new Promise<void>((r) => (quiet = r));
  await page.route(SHARD, async (route) => {
    if (isChunk(route.request().headers()['range']) && ++chunks > 3) await ended;
    await route.continue().catch(() => undefined);
  });
  const mb = (text: string | null) => Number(/([\d.]+) MB/.exec(text ?? '')?.[1]);
  await openPreview(page, REPO, 'wasm');
  await page.getByRole('button', { name: 'Inspect' }).click();
  const download = page.getByRole('button', { name: /^Download / });
  const full = mb(await download.textContent());
  expect(full).toBeGreaterThanOrEqual(500);
  await download.click();
  // the progress shows the three chunks while the fourth waits (progress that came in quick succession was dropped)
  await expect
    .poll(async () => mb(await page.getByTestId('download-progress').textContent()), { timeout: 120_000 })
    .toBeGreaterThanOrEqual(3 * 67);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText('Download cancelled; nothing was loaded.');
  // at least two whole chunks were stored (the third may still have been moving into place)
  await expect.poll(async () => mb(await download.textContent())).toBeLessThanOrEqual(full - 2 * 67);
  const left = mb(await download.textContent());
  await expect(page.getByTestId('cache-state')).toHaveText(`${left} MB to download`);
  // a new inspection (after a reload) counts the stored chunks the same way
  await page.reload();
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(download).toHaveText(`Download ${left} MB`);
  quiet();
  await context.close();
});

test('a generated checkpoint of over 500 MB streams from a local folder into a WASM session', async ({ browser }) => {
  test.setTimeout(480_000);
  expect(weightBytes).toBeGreaterThanOrEqual(500e6);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}`, acceptDownloads: true });
  const page = await context.newPage();
  const weightRequests: { range: string | undefined; bytes: number }[] = [];
  page.on('requestfinished', async (r) => {
    if (r.method() !== 'GET' || !SHARD.test(new URL(r.url()).pathname)) return;
    const range = r.headers()['range'];
    weightRequests.push({ range, bytes: rangeBytes(range) });
  });
  await openPreview(page, REPO, 'wasm');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('download-size')).toHaveText(/^5\d\d MB in 2 files$/);
  const inspected = weightRequests.length;

  await page.getByRole('button', { name: 'Run forward pass' }).click();
  await expect(page.getByTestId('provider-used')).toHaveText('wasm', { timeout: 420_000 });
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  await expect(page.getByTestId('cache-state')).toHaveText('all files cached');

  // the inspector read headers only; the run fetched every byte once, a Range request per chunk
  const run = weightRequests.slice(inspected);
  expect(run.every((r) => r.range)).toBe(true);
  expect(run.reduce((s, r) => s + r.bytes, 0)).toBeGreaterThan(weightBytes);
  expect(run.reduce((s, r) => s + r.bytes, 0)).toBeLessThan(weightBytes + 1e6);

  const model = await ConsisIDTransformer3DModel.fromPretrained(`${DIR}/transformer`, { device: 'cpu' });
  const inputs = generateInputs(model.config, defaultSpec(model.config));
  const ref = await model.forward({ ...forwardArgs(model.config, inputs), return_dict: true });
  await model.release();
  const out = await downloadedOutput(page);
  expect(out.shape).toEqual(ref.sample.shape);
  expect(relativeError(out.data, ref.sample.data as Float32Array)).toBeLessThanOrEqual(1e-3);
  await context.close();
});

test('a weight chunk the hub refuses while the session reads it: the preview says the hub refused it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}` });
  const page = await context.newPage();
  // the third chunk of the weights is refused each time it is asked for (a token revoked part way)
  let chunks = 0;
  let refused = '';
  await page.route(SHARD, async (route) => {
    const range = route.request().headers()['range'] ?? '';
    if (isChunk(range) && (++chunks === 3 || range === refused)) {
      refused = range;
      return route.fulfill({ status: 403, body: 'Forbidden' });
    }
    await route.continue().catch(() => undefined);
  });
  await openPreview(page, REPO, 'wasm');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await page.getByTestId('checkpoint-summary').waitFor();
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  const error = page.getByTestId('preview-error');
  await expect(error).toContainText(/diffusion_pytorch_model-\d+-of-\d+\.safetensors: .*403/, { timeout: 120_000 });
  await expect(error).not.toContainText('memory copy');
  await context.close();
});
