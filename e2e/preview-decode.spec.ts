// Model preview: a denoising run's latents decoded with the demo checkpoint's own vae/ (generated
// random weights: the frames are noise-like), on WASM and on WebGPU (SwiftShader): the progress per
// batch, the clip's frames, and a Cancel after which the page is usable and a second Decode succeeds.
import { expect, test, type Page } from '@playwright/test';
import { openPreview } from './preview-support.ts';
import { parseConfig } from '../src/model/graph/config.ts';
import { defaultSpec, specShape } from '../src/model/graph/input-spec.ts';
import { planFit } from '../src/model/plan/fit.ts';
import { planPreviewDecode } from '../src/model/pipeline/decode-preview.ts';
import { CONSISID_TINY_CONFIG, DEMO_VAE_CONFIG } from '../src/model/models/consisid/demo-checkpoints.ts';

const TINY = 'consisid-community/consisid-tiny';

test.describe.configure({ mode: 'serial' });
// SwiftShader compiles a WebGPU shader per kernel shape: a first WebGPU decode takes tens of seconds
test.setTimeout(360_000);

async function runDenoising(page: Page, provider: 'wasm' | 'webgpu') {
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('vae-size')).toHaveText(/^vae\/: [\d.]+ KB$/);
  await expect(page.getByTestId('fit-vae')).toContainText(
    /VAE decoder \(vae\/, float32\): weights [\d.]+ KB.*fits: yes/,
  );
  await page.getByLabel('Run mode').selectOption('denoise');
  await page.getByLabel('Steps', { exact: true }).fill('2');
  await page.getByRole('button', { name: 'Run 2 denoising steps' }).click();
  await expect(page.getByTestId('provider-used')).toHaveText(provider, { timeout: 300_000 });
  await expect(page.getByRole('img', { name: /Latent frame 1 of 2/ })).toBeVisible();
}

/** every text the decode's status line shows from now on (a batch may pass quicker than a poll) */
const watchStatus = (page: Page) =>
  page.getByTestId('decode-status').evaluate((el) => {
    const seen: string[] = [];
    (window as unknown as { decodeStatus: string[] }).decodeStatus = seen;
    new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
const statusSeen = (page: Page) => page.evaluate(() => (window as unknown as { decodeStatus: string[] }).decodeStatus);

/** the RGBA bytes of the frame the clip player shows */
const shownFrame = (page: Page) =>
  page
    .getByTestId('clip-player')
    .getByRole('img')
    .evaluate((c: HTMLCanvasElement) => Array.from(c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data));

async function expectClip(page: Page) {
  const player = page.getByTestId('clip-player');
  await expect(player.getByRole('img', { name: 'Decoded clip, Frame 1 of 8' })).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId('decode-status')).toHaveText('Decoded 8 frames of 128 x 96 with vae/.');
  // the clip replaces the latent projection
  await expect(page.getByRole('img', { name: /Latent frame/ })).toHaveCount(0);
  const first = await shownFrame(page);
  expect(new Set(first.filter((_, i) => i % 4 !== 3)).size, 'distinct colour values').toBeGreaterThan(20);
  await player.getByRole('slider', { name: 'Frame', exact: true }).fill('7');
  await expect(player.getByRole('img', { name: 'Decoded clip, Frame 8 of 8' })).toBeVisible();
  expect(await shownFrame(page)).not.toEqual(first);
}

const decodeButton = (page: Page) => page.getByRole('button', { name: 'Decode', exact: true });

test('WASM: Decode shows its batches and the clip; Cancel stops it, and a second Decode succeeds', async ({ page }) => {
  await openPreview(page, TINY, 'wasm');
  await runDenoising(page, 'wasm');
  await expect(page.getByTestId('decode-status')).toHaveText(
    /^Decode the latents into frames with vae\/ \([\d.]+ KB\)\.$/,
  );
  await expect(page.getByTestId('fit-vae')).toContainText('It decodes beside the transformer: its sessions hold');

  // cancel: the page is usable at once, the latents stay
  await decodeButton(page).click();
  await page.getByRole('button', { name: 'Cancel decode' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText(/^Decode cancelled/);
  await expect(decodeButton(page)).toBeEnabled();
  await expect(page.getByRole('img', { name: /Latent frame 1 of 2/ })).toBeVisible();
  await expect(page.getByTestId('clip-player')).toHaveCount(0);

  await watchStatus(page);
  await decodeButton(page).click();
  await expectClip(page);
  expect(await statusSeen(page)).toContain('Decoding with vae/: batch 1 of 1…');
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  // removing the checkpoint from the cache takes the vae/'s file the decode stored with the transformer's
  await page.getByRole('button', { name: 'Remove this checkpoint from the browser cache' }).click();
  await expect(page.getByTestId('preview-notice')).toHaveText('Removed 2 cached files from the browser cache.');
  if (process.env.SCREENSHOTS === '1') {
    await page.getByTestId('clip-player').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'docs/images/preview-decode.png' });
  }
});

/** latents one decode batch holds whole: the smallest tile (6 x 5 latents) */
const SMALL = { height: 6, width: 4 };

/**
 * A decode budget (?decodeBudget=) the demo VAE's decode of SMALL latents fits alone but not beside
 * the tiny transformer's float32 session, as the plan counts them (WASM)
 */
function budgetReleasing(): number {
  const config = parseConfig(CONSISID_TINY_CONFIG);
  const spec = { ...defaultSpec(config), ...SMALL };
  const held = planFit(config, specShape(config, spec), 'wasm', null).find((f) => f.weights === 'float32')!.heapBytes;
  const decode = planPreviewDecode(
    DEMO_VAE_CONFIG,
    [1, spec.frames, config.out_channels, SMALL.height, SMALL.width],
    'wasm',
  );
  expect(decode.tiles).toBe(1);
  return Math.round(decode.needBytes + held / 2);
}

test('WASM: a decode that does not fit beside the transformer releases its sessions; the next run makes them again, same output', async ({
  page,
}) => {
  // 1 WASM thread, as budgetReleasing plans it (a threaded page's decode needs more: wasmPageBytes)
  await openPreview(page, TINY, 'wasm', `&decodeBudget=${budgetReleasing()}&weights=float32&threads=1`);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await page.getByLabel('Latent height').fill(String(SMALL.height));
  await page.getByLabel('Latent width').fill(String(SMALL.width));
  await expect(page.getByTestId('fit-vae')).toContainText("It releases the transformer's sessions first: they hold");
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  await expect(page.getByTestId('provider-used')).toHaveText('wasm', { timeout: 120_000 });
  const stats = page.getByTestId('channel-stats');
  const ran = await stats.textContent();
  await decodeButton(page).click();
  await expect(page.getByTestId('decode-status')).toHaveText('Decoded 8 frames of 32 x 48 with vae/.', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('preview-notice')).toHaveText(
    "The transformer's sessions were released to make room for the decode; the next run makes them again.",
  );
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  // the run clears the clip, then ends: Decode is offered again
  await expect(page.getByTestId('decode-status')).toHaveText(/^Decode the latents/);
  await expect(decodeButton(page)).toBeEnabled({ timeout: 120_000 });
  // the session was made again (the timing table says "reused" for a kept one), and the output is the same
  await expect(page.getByTestId('timings').getByRole('row', { name: /session creation/ })).not.toContainText('reused');
  expect(await stats.textContent()).toBe(ran);
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
});

test('WebGPU (SwiftShader): Decode plays the clip the vae/ makes', async ({ page }) => {
  await openPreview(page, TINY, 'webgpu');
  await runDenoising(page, 'webgpu');
  await decodeButton(page).click();
  await expectClip(page);
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
});

test('a repository without vae/, or with a VAE config it cannot read, offers no Decode and says why', async ({
  page,
}) => {
  const vaeConfig = /\/resolve\/[^/]+\/vae\/config\.json$/;
  await page.route(vaeConfig, (route) => route.fulfill({ status: 404, body: 'Entry not found' }));
  await openPreview(page, TINY, 'wasm');
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('vae-size')).toHaveText('none');
  const missing = `${TINY}/vae/config.json is not on the hub (HTTP 404): this checkpoint has no VAE to decode with`;
  await expect(page.getByTestId('fit-vae')).toHaveText(`VAE: none to decode with (${missing}).`);
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  await expect(page.getByTestId('provider-used')).toHaveText('wasm', { timeout: 120_000 });
  await expect(decodeButton(page)).toBeDisabled();
  await expect(page.getByTestId('decode-status')).toHaveText(`No decode: ${missing}`);

  await page.unroute(vaeConfig);
  const unreadable = { _class_name: 'AutoencoderKLCogVideoX', block_out_channels: [8, 16], norm_num_groups: 3 };
  await page.route(vaeConfig, (route) => route.fulfill({ json: unreadable }));
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('fit-vae')).toContainText(`${TINY}/vae/config.json`);
  await expect(page.getByTestId('fit-vae')).toContainText('block_out_channels');
  await expect(page.getByTestId('vae-size')).toHaveText('none');
});
