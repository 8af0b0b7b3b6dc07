import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { breakHub, expectErrorPanelThenRecover, rewriteHubJson } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';

const grid = (page: Page) => page.getByTestId('audit-grid');
const rows = (page: Page) => page.getByTestId('audit-row');
const EXPORT = /\/api\/organizations\/acme\/audit-log\/export/;

/** Rows show while the export is still parsed; the whole export is in once the count says so. */
const complete = (page: Page) =>
  expect(page.locator('[data-testid="audit-count"][data-complete="true"]')).toBeVisible({ timeout: 60_000 });

async function openAcmeAuditLog(page: Page, search = '') {
  await signIn(page, TOKENS.aliceWrite, `/orgs/acme/audit-log${search}`);
  await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
  await complete(page);
}

const cellTexts = (page: Page, col: number) =>
  rows(page).evaluateAll((els, c) => els.map((e) => e.children[c]!.textContent ?? ''), col);

test.describe('audit log', () => {
  test('shows the last 100,000 events in a virtualized grid that keeps few rows in the DOM', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/orgs/acme');
    const t0 = Date.now();
    await page.getByRole('main').getByRole('link', { name: 'Audit log' }).click();
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    test.info().annotations.push({ type: 'click to first rows', description: `${Date.now() - t0} ms` });
    await complete(page);
    await expect(page.getByTestId('audit-count')).toHaveText(/^100,000 of 100,000 events/);
    // acme has 120,000 events: the export stopped at the cap, and the page says so.
    await expect(page.getByTestId('audit-cap')).toHaveText(
      'The newest 100,000 events; narrow the filter to see older ones.',
    );
    await expect(grid(page)).toHaveAttribute('aria-rowcount', '100001');

    let maxRows = 0;
    for (const frac of [0, 0.1, 0.37, 0.5, 0.82, 1]) {
      await grid(page).evaluate((el, f) => {
        el.scrollTop = (el.scrollHeight - el.clientHeight) * f;
      }, frac);
      await page.waitForTimeout(100);
      maxRows = Math.max(maxRows, await rows(page).count());
    }
    expect(maxRows).toBeGreaterThan(5);
    expect(maxRows).toBeLessThan(300);
    // At the bottom the last event is rendered.
    await expect(page.locator('[data-testid="audit-row"][aria-rowindex="100001"]')).toBeVisible();
    await expectAccessibleInBothThemes(page);
  });

  test('is keyboard navigable and opens the detail drawer', async ({ page }) => {
    await openAcmeAuditLog(page);
    await grid(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(grid(page)).toHaveAttribute('aria-activedescendant', 'audit-row-3');
    await expect(page.locator('#audit-row-3')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('End');
    await expect(grid(page)).toHaveAttribute('aria-activedescendant', 'audit-row-99999');
    await expect(page.locator('#audit-row-99999')).toBeVisible();
    expect(await rows(page).count()).toBeLessThan(300);
    await page.keyboard.press('Home');
    await expect(grid(page)).toHaveAttribute('aria-activedescendant', 'audit-row-0');
    const firstMessage = (await cellTexts(page, 4))[0];
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId('event-message')).toHaveText(firstMessage!);
    for (const label of ['Location', 'User agent', 'Token', 'OAuth app', 'IP', 'Author'])
      await expect(drawer.getByText(label, { exact: true })).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(grid(page)).toBeFocused();
  });

  test('sorts by column and narrows by the type facet', async ({ page }) => {
    await openAcmeAuditLog(page);
    await grid(page).getByRole('button', { name: /^Type/ }).click();
    await expect(page).toHaveURL(/sort=type/);
    await expect(grid(page).getByRole('columnheader', { name: /Type/ })).toHaveAttribute('aria-sort', 'descending');
    const types = await cellTexts(page, 1);
    expect([...types].sort().reverse()).toEqual(types);
    await grid(page).getByRole('button', { name: /^Time/ }).click();
    await expect(page).toHaveURL(/sort=createdAt|^(?!.*sort=)/);

    const facet = page.getByTestId('type-facet');
    const second = facet.getByRole('button').nth(2);
    const [type, count] = (await second.innerText()).split(/\s+/);
    await second.click();
    await expect(second).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('audit-count')).toHaveText(
      new RegExp(`^${count} of 100,000 events of type ${type!.replace(/\./g, '\\.')}`),
    );
    await expect(page).toHaveURL(new RegExp(`facet=${type}`));
    expect(new Set(await cellTexts(page, 1))).toEqual(new Set([type]));
  });

  test('builds the q filter from chips, kept in the URL', async ({ page }) => {
    await openAcmeAuditLog(page);
    const author = (await cellTexts(page, 2))[0]!;
    const filter = page.getByRole('form', { name: 'Audit log filter' });
    await filter.getByLabel('Value').fill(author);
    await filter.getByRole('button', { name: 'Add filter' }).click();
    await expect(page).toHaveURL(new RegExp(`q=author%3A${author}`));
    await expect(page.getByTestId('filter-chip')).toHaveText(`author:${author}✕`);
    await expect.poll(async () => new Set(await cellTexts(page, 2))).toEqual(new Set([author]));
    // Under the cap: nothing about it.
    await expect(page.getByTestId('audit-count')).toHaveAttribute('data-complete', 'true');
    await expect(page.getByTestId('audit-cap')).toHaveCount(0);

    await filter.getByLabel('Filter by').selectOption('type');
    await filter.getByLabel('Value').selectOption('repo.create');
    await filter.getByRole('button', { name: 'Add filter' }).click();
    await expect(page.getByTestId('filter-chip')).toHaveCount(2);
    await expect(page).toHaveURL(/type%3Arepo\.create/);

    // A bookmark of the filtered view reloads the same.
    await page.reload();
    await expect(page.getByTestId('filter-chip')).toHaveCount(2);
    await page.getByRole('button', { name: `Remove filter author:${author}` }).click();
    await expect(page.getByTestId('filter-chip')).toHaveCount(1);
    await expect.poll(async () => new Set(await cellTexts(page, 1))).toEqual(new Set(['repo.create']));

    await filter.getByLabel('Filter by').selectOption('ip');
    await filter.getByLabel('Value').fill('10.0.0.1 10.0.0.2');
    await filter.getByRole('button', { name: 'Add filter' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'cannot contain spaces' })).toBeVisible();
    await expect(page.getByTestId('filter-chip')).toHaveCount(1);
  });

  test('downloads the export as the file named by Content-Disposition', async ({ page }) => {
    const exported = page.waitForResponse(EXPORT);
    await signIn(page, TOKENS.aliceWrite, '/orgs/acme/audit-log?q=type:repo.create');
    const res = await exported;
    const disposition = res.headers()['content-disposition']!;
    const expected = /filename="?([^";]+)"?/.exec(disposition)![1]!;
    // the page may drop the response's body once it has read it (a refetch); the same request again gives the same export
    const body = await res
      .text()
      .catch(async () => (await page.request.get(res.url(), { headers: await res.request().allHeaders() })).text());
    await expect(rows(page).first()).toBeVisible();
    await complete(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^Download/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(expected);
    expect(await readFile((await download.path())!, 'utf8')).toBe(body);
  });

  test('renders HTML in event fields as text and shows token and oauth in the drawer', async ({ page }) => {
    const html = '<img src=x onerror="window.__xss=1">';
    await rewriteHubJson<Record<string, unknown>[]>(page, EXPORT, (events) => {
      Object.assign(events[0]!, {
        message: html,
        userAgent: `<script>window.__xss=2</script>`,
        location: { formatted: '<b>Paris</b>', city: 'Paris', country: 'FR' },
        token: { type: 'access_token', id: 'tok-e2e', role: 'write', last4: 'ab12', deleted: false },
        oauth: { clientId: 'client-e2e', name: '<i>App</i>' },
      });
    });
    await openAcmeAuditLog(page);
    await expect(rows(page).first()).toContainText(html);
    await rows(page).first().click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByTestId('event-message')).toHaveText(html);
    await expect(drawer).toContainText('<script>window.__xss=2</script>');
    await expect(drawer).toContainText('<b>Paris</b>');
    await expect(drawer.getByTestId('event-token')).toHaveText('access_token tok-e2e · write · …ab12');
    await expect(drawer).toContainText('<i>App</i> (client client-e2e)');
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  });

  test('explains the plan gate on a free organization', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/orgs/freeorg/audit-log');
    await expect(page.getByTestId('gate-panel')).toContainText(
      'The audit log needs the Team or Enterprise plan; freeorg is on Free.',
    );
    await expect(page.getByTestId('error-panel')).toHaveCount(0);
    await expectAccessibleInBothThemes(page);
  });

  test('explains the role gate the hub answers with 403', async ({ page }) => {
    await signIn(page, TOKENS.bobWrite, '/orgs/acme/audit-log');
    await expect(page.getByTestId('gate-panel')).toContainText(
      'Only organization admins can export the audit log; your role in acme is read.',
    );
  });

  test('an invalid q in the URL is explained, and clearing it recovers', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/orgs/acme/audit-log?q=colour:blue');
    await expect(page.getByTestId('error-panel')).toContainText('colour:blue');
    await page.getByTestId('error-panel').getByRole('button', { name: 'Retry' }).click();
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
  });

  for (const fault of ['500', 'malformed', 'timeout'] as const) {
    test(`a hub ${fault} shows the error panel and retry recovers`, async ({ page }) => {
      await signIn(page, TOKENS.aliceWrite, '/inbox');
      const broken = await breakHub(page, /\/api\/organizations\/teamco\/audit-log\/export/, fault);
      await page.goto('/orgs/teamco/audit-log');
      await expectErrorPanelThenRecover(page, fault, broken);
      await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
      await complete(page);
    });
  }
});
