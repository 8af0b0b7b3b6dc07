import { expect, test, type Page } from '@playwright/test';
import { breakHub, expectErrorPanelThenRecover, hub, rewriteHubJson } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';

interface Usage {
  id: string;
  type: string;
  storage: number;
  updatedAt: string;
}

const rows = (page: Page) => page.getByTestId('usage-row');
const bytesShown = (page: Page) =>
  page
    .locator('[data-testid="usage-row"] td[data-bytes]')
    .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-bytes'))));

test.describe('storage', () => {
  test('shows every repository with totals and an accessible chart', async ({ page, request }) => {
    const all = await hub(request, TOKENS.aliceWrite).call<Usage[]>('GET', '/api/settings/repositories');
    await signIn(page, TOKENS.aliceWrite, '/storage');
    await expect(rows(page)).toHaveCount(all.length);
    await expect(page.getByTestId('total-count')).toHaveText(String(all.length));
    const total = all.reduce((s, r) => s + r.storage, 0);
    // Default order from the hub: largest first.
    expect(await bytesShown(page)).toEqual([...all.map((r) => r.storage)].sort((a, b) => b - a));
    for (const id of ['chart-by-type', 'chart-top']) {
      const chart = page.getByTestId(id);
      await expect(chart).toHaveAttribute('role', 'img');
      await expect(chart.locator('title')).not.toBeEmpty();
      await expect(chart.locator('desc')).not.toBeEmpty();
    }
    // The chart's numbers are also text (desc), per type, and sum to the total shown.
    const desc = await page.getByTestId('chart-by-type').locator('desc').textContent();
    for (const t of ['model', 'dataset', 'space', 'bucket', 'kernel']) expect(desc).toContain(`${t}:`);
    const totalText = await page.getByTestId('total-bytes').textContent();
    expect(totalText).toMatch(/^\d+(\.\d)? (B|KB|MB|GB|TB|PB)$/);
    const [n, unit] = totalText!.split(' ');
    const scale = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, PB: 1e15 }[unit as 'B'];
    expect(Math.abs(Number(n) * scale - total) / total).toBeLessThan(0.01);
    await expectAccessibleInBothThemes(page);
  });

  test('sorts, searches, filters by type and limits, all kept in the URL', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/storage');
    await expect(rows(page).first()).toBeVisible();

    await page.getByRole('button', { name: /^Storage/ }).click();
    await expect(page).toHaveURL(/sort=storage/);
    await expect(page).toHaveURL(/direction=asc/);
    await expect(page.getByRole('columnheader', { name: /Storage/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect
      .poll(async () => {
        const b = await bytesShown(page);
        return b.every((v, i) => i === 0 || b[i - 1]! <= v);
      })
      .toBe(true);

    await page.getByRole('button', { name: /^Updated/ }).click();
    await expect(page).toHaveURL(/sort=updatedAt/);
    await expect(page).toHaveURL(/direction=desc/);
    await expect
      .poll(async () => {
        const ts = await page
          .locator('[data-testid="usage-row"] time')
          .evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
        return ts.length > 1 && ts.every((t, i) => i === 0 || ts[i - 1]! >= t);
      })
      .toBe(true);

    await page.getByLabel('Repository type', { exact: true }).selectOption('model');
    await expect(page).toHaveURL(/type=model/);
    await expect
      .poll(async () => (await rows(page).locator('td:nth-child(2)').allTextContents()).every((t) => t === 'model'))
      .toBe(true);

    await page.getByLabel('Search repositories').fill('vision');
    await expect(page).toHaveURL(/search=vision/);
    await expect
      .poll(async () =>
        (await rows(page).locator('td:first-child').allTextContents()).every((t) => t.toLowerCase().includes('vision')),
      )
      .toBe(true);

    await page.getByLabel('Search repositories').fill('');
    await page.getByLabel('Limit').selectOption('5');
    await expect(page).toHaveURL(/limit=5/);
    await expect(rows(page)).toHaveCount(5);

    // A bookmark brings the same view back.
    await page.reload();
    await expect(page.getByLabel('Repository type', { exact: true })).toHaveValue('model');
    await expect(page.getByLabel('Limit')).toHaveValue('5');
    await expect(rows(page)).toHaveCount(5);
  });

  test('switches to an organization from the owner selector', async ({ page, request }) => {
    const acme = await hub(request, TOKENS.aliceWrite).call<Usage[]>(
      'GET',
      '/api/organizations/acme/settings/repositories',
    );
    await signIn(page, TOKENS.aliceWrite, '/storage');
    await page.getByLabel('Owner').selectOption('acme');
    await expect(page).toHaveURL(/org=acme/);
    await expect(rows(page)).toHaveCount(acme.length);
    await expect(rows(page).first()).toContainText('acme/');
    await expectAccessibleInBothThemes(page);
  });

  test('renders HTML in repository names as text', async ({ page }) => {
    const payload = 'alice/<img src=x onerror="window.__xss=1">';
    await rewriteHubJson<Usage[]>(page, '**/api/settings/repositories*', (body) => {
      body[0]!.id = payload;
    });
    await signIn(page, TOKENS.aliceWrite, '/storage');
    await expect(rows(page).first().locator('td').first()).toHaveText(payload);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  for (const fault of ['500', 'malformed', 'timeout'] as const) {
    test(`a hub ${fault} shows the error panel and retry recovers`, async ({ page }) => {
      await signIn(page, TOKENS.aliceWrite, '/inbox');
      const broken = await breakHub(page, /\/api\/settings\/repositories/, fault);
      await page.getByRole('link', { name: 'Storage' }).click();
      await expectErrorPanelThenRecover(page, fault, broken);
      await expect(rows(page).first()).toBeVisible();
    });
  }
});
