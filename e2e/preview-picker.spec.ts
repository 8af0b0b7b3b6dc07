// The preview's checkpoint picker on the hub's file API: an owner's models, a repository's
// checkpoint folders with their sizes before anything downloads, and the typed repository id
// where the hub answers 404 to those routes.
import { expect, test } from '@playwright/test';
import { openPreview } from './preview-support.ts';
import { expectAccessible } from './support.ts';

const TINY = 'consisid-community/consisid-tiny';
const FACE = 'consisid-community/consisid-preview-s';

test("lists the owner's models and a repository's checkpoint folders; a folder loads", async ({ page }) => {
  const weights: string[] = [];
  page.on('request', (r) => {
    if (/\.safetensors$/.test(new URL(r.url()).pathname)) weights.push(r.url());
  });
  await openPreview(page, TINY, 'wasm');
  const picker = page.getByTestId('checkpoint-picker');
  // the signed-in user's models first
  await expect(picker.getByLabel('Owner')).toHaveValue('alice');
  await picker.getByLabel('Owner').fill('consisid-community');
  const models = picker.getByLabel('Their models');
  await expect(models.locator('option', { hasText: FACE })).toHaveCount(1);
  await expect(models.locator('option', { hasText: TINY })).toHaveCount(1);
  await models.selectOption(FACE);
  await expect(page.getByLabel('Repository')).toHaveValue(FACE);
  const folder = picker.getByTestId('checkpoint-folder');
  await expect(folder).toHaveCount(1);
  await expect(folder.getByTestId('folder-size')).toHaveText(/^[\d.]+ (KB|MB) in 2 weight files$/);
  await expectAccessible(page);
  // sizes came from the file tree: no weight file was asked for yet
  expect(weights).toEqual([]);

  await folder.getByRole('button', { name: 'Load transformer/' }).click();
  await expect(page.getByTestId('checkpoint-summary')).toBeVisible();
  await expect(page.getByLabel('Subfolder')).toHaveValue('transformer');
  await expect(page.getByTestId('download-size')).toContainText('in 2 files');
  await expect(page.getByTestId('weight-dtype')).toHaveText('F16');
});

test('a hub that answers 404 to the file API leaves the typed repository id', async ({ page }) => {
  await page.route(/\/api\/models(\?|\/)/, (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"Not Found"}' }),
  );
  await openPreview(page, TINY, 'wasm');
  const fallback = page.getByTestId('checkpoint-picker').getByTestId('picker-fallback');
  await expect(fallback.filter({ hasText: 'This hub does not list models by owner (HTTP 404)' })).toHaveCount(1);
  await expect(fallback.filter({ hasText: `The hub lists no files for ${TINY} at main (HTTP 404)` })).toHaveCount(1);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await expect(page.getByTestId('checkpoint-summary')).toBeVisible();
  await expect(page.getByTestId('download-size')).toContainText('in 1 file');
});
