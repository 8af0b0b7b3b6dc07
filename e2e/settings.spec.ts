import { expect, test, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes, failFirst, hubApi } from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';

const FLAG_COUNT = 23;
const toggle = (page: Page, group: string, label: string) =>
  page.getByTestId(`flag-group-${group}`).getByRole('switch', { name: label });
const save = (page: Page) => page.getByRole('button', { name: 'Save changes' });

test.describe('settings', () => {
  test('shows every notification flag as a labelled switch, grouped', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(page.getByRole('switch')).toHaveCount(FLAG_COUNT);
    for (const group of [
      'Discussions & posts (email)',
      'Web notifications',
      'Papers',
      'Organizations',
      'Product & launches',
      'Security & account',
    ]) {
      await expect(page.getByRole('group', { name: group })).toBeVisible();
    }
    await expect(toggle(page, 'security', 'Leaked secrets')).toHaveAttribute('aria-checked', 'true');
    await expect(toggle(page, 'papers', 'Daily papers digest')).toHaveAttribute('aria-checked', 'false');
  });

  test('saves a changed flag with PATCH and keeps it after reload (then restores it)', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    const digest = toggle(page, 'papers', 'Daily papers digest');
    const before = await digest.getAttribute('aria-checked');
    const after = before === 'true' ? 'false' : 'true';
    await expect(save(page)).toBeDisabled();
    await digest.click();
    const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('/api/settings/notifications'));
    await save(page).click();
    expect((await patch).postDataJSON()).toEqual({ notifications: { daily_papers_digest: after === 'true' } });
    await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
    await page.reload();
    await expect(toggle(page, 'papers', 'Daily papers digest')).toHaveAttribute('aria-checked', after);
    await toggle(page, 'papers', 'Daily papers digest').click();
    await page.keyboard.press('Control+s');
    await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
    await expect(toggle(page, 'papers', 'Daily papers digest')).toHaveAttribute('aria-checked', before!);
  });

  test('product updates date is sent as a UTC timestamp and persists (then restored)', async ({ page, request }) => {
    const api = hubApi(request, TOKENS.aliceWrite);
    const original = (
      await api.get<{ notifications: { product_updates_after?: string } }>('/api/settings/notifications')
    ).notifications.product_updates_after;
    try {
      await signIn(page, TOKENS.aliceWrite, '/settings');
      const field = page.getByLabel('Product updates after');
      await field.fill('2026-02-01T10:30');
      const patch = page.waitForRequest(
        (r) => r.method() === 'PATCH' && r.url().includes('/api/settings/notifications'),
      );
      await save(page).click();
      const sent = (await patch).postDataJSON() as { notifications: { product_updates_after: string } };
      expect(sent.notifications.product_updates_after).toMatch(/^2026-0[12]-\d\dT\d\d:30:00\.000Z$/);
      await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
      await page.reload();
      await expect(page.getByLabel('Product updates after')).toHaveValue('2026-02-01T10:30');
    } finally {
      if (original)
        await api.send('PATCH', '/api/settings/notifications', { notifications: { product_updates_after: original } });
    }
  });

  test('prepaid amount appears with prepaid credits, is validated inline, and a hub 400 shows next to it', async ({
    page,
  }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    const amount = page.getByLabel('Prepaid amount');
    await expect(amount).toHaveCount(0);
    await toggle(page, 'product', 'Prepaid credits').click();
    await expect(amount).toBeVisible();

    const patches: string[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && patches.push(r.url()));
    await save(page).click();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('prepaidAmount is required when enabling launch_prepaid_credits')).toBeVisible();
    await amount.fill('1'.repeat(25));
    await save(page).click();
    await expect(page.getByText('prepaidAmount must be at most 24 characters')).toBeVisible();
    expect(patches).toEqual([]);

    // The hub can still refuse what the schema allows: its 400 lands on the field it names.
    await failFirst(
      page,
      '**/api/settings/notifications',
      {
        status: 400,
        body: JSON.stringify({ error: 'prepaidAmount: must be an amount with a currency, e.g. "100 USD"' }),
      },
      1,
      'PATCH',
    );
    await amount.fill('lots');
    await save(page).click();
    await expect(page.getByText('must be an amount with a currency')).toBeVisible();
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('error-panel')).toHaveCount(0);

    // Accepted for real, then turned off again so the seed state is back.
    await amount.fill('100 USD');
    await save(page).click();
    await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
    await page.reload();
    await expect(toggle(page, 'product', 'Prepaid credits')).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByLabel('Prepaid amount')).toHaveValue('100 USD');
    await toggle(page, 'product', 'Prepaid credits').click();
    await expect(page.getByLabel('Prepaid amount')).toHaveCount(0);
    await save(page).click();
    await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
    await expect(toggle(page, 'product', 'Prepaid credits')).toHaveAttribute('aria-checked', 'false');
  });

  test('a read-only token sees the hub 403 when saving', async ({ page }) => {
    await signIn(page, TOKENS.aliceRead, '/settings');
    await toggle(page, 'security', 'Account locked').click();
    await save(page).click();
    const panel = page.getByTestId('error-panel');
    await expect(panel).toContainText('HTTP 403');
    await expect(panel).toContainText('read-only');
  });

  test('a hub 500 loading settings shows the error panel, and Retry recovers', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    const fault = await failFirst(
      page,
      '**/api/settings/notifications',
      { status: 500, body: JSON.stringify({ error: 'settings store unavailable' }) },
      3,
      'GET',
    );
    await page.getByRole('link', { name: 'Settings' }).click();
    const panel = page.getByTestId('error-panel');
    await expect(panel).toContainText('settings store unavailable', { timeout: 20_000 });
    await expect(panel.getByTestId('request-id')).toHaveText('req-e2e-3');
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('switch')).toHaveCount(FLAG_COUNT);
    expect(fault.served()).toBe(3);
  });

  test('watch list: add and remove a user; an unknown repo is refused and undone', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    const list = page.getByTestId('watch-list');
    await expect(list).toContainText('acme/llama-vision-model');
    await page.getByLabel('Type').selectOption('user');
    await page.getByLabel('Name', { exact: true }).fill('carol');
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect(list.getByTestId('watch-item').filter({ hasText: 'carol' })).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('watch-list').getByTestId('watch-item').filter({ hasText: 'carol' })).toBeVisible();
    await page.getByRole('button', { name: 'Stop watching user carol' }).click();
    await expect(page.getByTestId('watch-item').filter({ hasText: 'carol' })).toHaveCount(0);

    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect(page.getByText('Enter a name to watch')).toBeVisible();

    await page.getByLabel('Type').selectOption('repo');
    await page.getByLabel('Name', { exact: true }).fill('nobody/missing-repo');
    await page.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect(page.getByTestId('error-panel')).toContainText('not found');
    await expect(page.getByTestId('watch-item').filter({ hasText: 'nobody/missing-repo' })).toHaveCount(0);
  });

  test('a failed watch-list change is rolled back with the hub message', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(page.getByTestId('watch-item').filter({ hasText: 'acme/llama-vision-model' })).toBeVisible();
    const before = await page.getByTestId('watch-item').count();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/settings/watch', async (route) => {
      if (route.request().method() !== 'PATCH') return route.fallback();
      await held;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        headers: { 'x-request-id': 'req-watch-1' },
        body: JSON.stringify({ error: 'watch store down' }),
      });
    });
    await page.getByRole('button', { name: 'Stop watching repository acme/llama-vision-model' }).click();
    await expect(page.getByTestId('watch-item')).toHaveCount(before - 1); // gone before the hub answers
    release();
    const panel = page.getByTestId('error-panel');
    await expect(panel).toContainText('watch store down');
    await expect(panel.getByTestId('request-id')).toHaveText('req-watch-1');
    await expect(page.getByTestId('watch-item')).toHaveCount(before);
    await expect(page.getByTestId('watch-item').filter({ hasText: 'acme/llama-vision-model' })).toBeVisible();
  });

  for (const [name, fault] of [
    ['a hub 500', { status: 500 }],
    ['malformed JSON', { status: 200, body: '{"notifications": ' }],
    ['a timeout', 'timeout'],
  ] as const) {
    test(`saving flags with ${name} keeps the edit unsaved and the hub unchanged`, async ({ page, request }) => {
      await signIn(page, TOKENS.aliceWrite, '/settings');
      const flag = toggle(page, 'security', 'Account locked');
      const before = await flag.getAttribute('aria-checked');
      await failFirst(page, '**/api/settings/notifications', fault, 1, 'PATCH');
      await flag.click();
      await save(page).click();
      await expect(page.getByTestId('error-panel')).toContainText('Could not save notification settings');
      await expect(page.getByTestId('settings-status')).toContainText('Unsaved changes');
      const onHub = await hubApi(request, TOKENS.aliceWrite).get<{ notifications: { locked_out: boolean } }>(
        '/api/settings/notifications',
      );
      expect(String(onHub.notifications.locked_out)).toBe(before);
      await page.getByRole('button', { name: 'Discard' }).click();
      await expect(flag).toHaveAttribute('aria-checked', before!);
    });
  }

  test('lists MCP built-in and Space tools', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(page.getByTestId('builtin-tools')).toContainText('hf_whoami');
    await expect(page.getByTestId('space-tools')).toContainText('flux-image-gen');
    await expect(page.getByTestId('space-tools')).toContainText('alice-flux-image-gen');
  });

  test('paper claim: look up, pick an author, claim; inline validation and hub errors by field', async ({
    page,
    request,
  }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    const form = page.getByRole('form', { name: 'Claim paper authorship' });
    const authorId = form.getByLabel('Author id (claimAuthorId)');

    await form.getByRole('button', { name: 'Claim authorship' }).click();
    await expect(form.getByText('paperId is required')).toBeVisible();

    await form.getByLabel('Paper id').fill('2501.00002');
    await form.getByRole('button', { name: 'Look up' }).click();
    await expect(form.getByTestId('paper-authors')).toContainText('Scaling Laws for Tiny Models');
    await expect(form.getByTestId('paper-authors')).toContainText('claimed by alice');
    await form.getByRole('radio', { name: /Alice Liddell/ }).check();
    await expect(authorId).toHaveValue(/^[0-9a-f]{24}$/);
    await form.getByRole('button', { name: 'Claim authorship' }).click();
    // A 409 naming a field is shown next to that field, not as a page-level panel.
    await expect(form.getByText(/already (claimed by|holds)/)).toBeVisible();
    await expect(form.locator('[aria-invalid="true"]')).toHaveCount(1);
    await expect(form.getByTestId('error-panel')).toHaveCount(0);

    // Claiming for someone else: the hub's 403 names targetUserId, so it is shown there.
    const bob = await hubApi(request, TOKENS.bobWrite).get<{ id: string }>('/api/whoami-v2');
    const claimFor = page.waitForResponse((r) => r.url().includes('/papers/claim'));
    await form.getByLabel('Receiving user id (targetUserId)').fill(bob.id);
    await form.getByRole('button', { name: 'Claim authorship' }).click();
    expect((await claimFor).status()).toBe(403);
    await expect(form.getByLabel('Receiving user id (targetUserId)')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByText('you can only claim papers for yourself')).toBeVisible();
    await form.getByLabel('Receiving user id (targetUserId)').fill('');

    await authorId.fill('not-hex');
    const posts: string[] = [];
    page.on('request', (r) => r.url().includes('/papers/claim') && posts.push(r.url()));
    await form.getByRole('button', { name: 'Claim authorship' }).click();
    await expect(form.getByText('must be 24 hexadecimal characters')).toBeVisible();
    expect(posts).toEqual([]);

    // 2501.00005 has an unclaimed "Alice Liddell" entry; claimed once per hub run.
    const paper = (
      await hubApi(request, TOKENS.aliceWrite).get<{ authors: { name: string; user?: unknown }[] }>(
        '/api/papers/2501.00005',
      )
    ).authors;
    test.skip(Boolean(paper.find((a) => a.name === 'Alice Liddell')?.user), 'already claimed in this hub run');
    await form.getByLabel('Paper id').fill('2501.00005');
    await form.getByLabel('Paper id').press('Enter');
    await expect(form.getByTestId('paper-authors')).toContainText('Audio Tokenizers Revisited');
    await form.getByRole('radio', { name: /Alice Liddell/ }).check();
    await form.getByRole('button', { name: 'Claim authorship' }).click();
    await expect(page.getByTestId('claim-result')).toHaveText('Claimed paper 2501.00005.');
    await expect(form.getByTestId('paper-authors')).toContainText('claimed by alice');
  });

  test('is accessible in light and dark themes', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(page.getByRole('switch')).toHaveCount(FLAG_COUNT);
    await expect(page.getByTestId('space-tools')).toBeVisible();
    await toggle(page, 'product', 'Prepaid credits').click();
    await expectAccessibleInBothThemes(page);
  });
});
