// Converted weights the browser cache has no room for: refused before download when they are also
// over the memory budget (the fit), and stopped with the sizes and the cause, never an
// out-of-memory crash, when the cache refuses during the run (the converter's memory fallback).
import { expect, test, type Page } from '@playwright/test';
import { openPreview } from './preview-support.ts';

const TINY = 'consisid-community/consisid-tiny';
// tiny's int4 weights are 67 KB, in 2 segments of at most 44 KB under a 60 KB heap budget a segment
const BUDGET = '&segmentHeap=60000&weights=int4';
const isWeightGet = (url: string) => /\/resolve\/[^/]+\/transformer\/[^/]*\.safetensors$/.test(new URL(url).pathname);

/** the origin's storage over its quota at once: every write of the cache is refused (QuotaExceededError) */
async function fullStorage(page: Page, baseURL: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL).origin, quotaSize: 1000 });
}

/** what navigator.storage.estimate() tells the page (Chromium's quota override does not reach it) */
const estimate = (page: Page, quota: number, usage: number) =>
  page.addInitScript(
    ([quota, usage]) => {
      navigator.storage.estimate = async () => ({ quota, usage });
    },
    [quota, usage],
  );

test('int4 weights with no room in the browser storage and over the memory budget are refused before download', async ({
  page,
  baseURL,
}) => {
  await fullStorage(page, baseURL!);
  await estimate(page, 1000, 200);
  const weightGets: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && isWeightGet(r.url()) && !r.headers()['range']?.startsWith('bytes=0-'))
      weightGets.push(r.url());
  });
  await openPreview(page, TINY, 'webgpu', BUDGET);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('checkpoint-summary')).toBeVisible();
  await expect(page.getByTestId('fit-storage')).toHaveText(
    /^Browser storage: 800 B free for this site\..* held in memory instead, with the largest segment's weights, within 60\.0 KB\.$/,
  );
  await expect(page.getByTestId('fit-int4')).toContainText(
    /no: the int4 weights need [\d.]+ KiB of browser storage; 0.8 KiB is free, and they are over the [\d.]+ KiB the page may hold in memory instead \(58\.6 KiB less the [\d.]+ KiB a segment passes through it\): free browser storage/,
  );
  await expect(page.getByTestId('run-refused')).toContainText('int4 does not fit');
  await expect(page.getByRole('button', { name: 'Run forward pass' })).toBeDisabled();
  expect(weightGets).toEqual([]);
});

test('a cache that refuses every write during an int4 run over the memory budget: the run stops with the sizes and the cause', async ({
  page,
  baseURL,
}) => {
  await fullStorage(page, baseURL!);
  // the estimate says there is room, so the plan lets the run start; the writes then fail on the quota
  await estimate(page, 1e12, 0);
  await openPreview(page, TINY, 'webgpu', BUDGET);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('fit-int4')).toContainText('yes');
  await page.getByRole('button', { name: 'Run forward pass' }).click();
  const error = page.getByTestId('preview-error');
  await expect(error).toContainText(
    /The int4 weights cannot be kept: the browser cache cannot store them \(.+\), and the [\d.]+ KiB of them it does not hold would pass the [\d.]+ KiB this page may hold in memory\./,
    { timeout: 120_000 },
  );
  await expect(page.getByTestId('provider-used')).toHaveCount(0);
});
