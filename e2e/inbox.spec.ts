import { expect, test, type Page } from '@playwright/test';
import { allNotifications, discussionIdOf, expectAccessibleInBothThemes, failFirst, hubApi } from './page-checks.ts';
import { captureConsole, signIn, TOKENS } from './support.ts';

const XSS = '<img src=x onerror=alert(1)>';
const rows = (page: Page) => page.getByTestId('notification-row');
/** The first unread row, pinned by its discussion id so it stays the same row when it changes. */
async function firstUnread(page: Page) {
  const id = await page.locator('[data-testid="notification-row"][data-read="false"]').first().getAttribute('data-id');
  return page.locator(`[data-testid="notification-row"][data-id="${id}"]`);
}

test.describe('inbox', () => {
  test('lists the four variants distinctly with counts, avatars and unread markers', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(rows(page)).toHaveCount(20);
    for (const type of ['paper', 'repo', 'post', 'community_blog']) {
      await expect(page.locator(`[data-testid="notification-row"][data-type="${type}"]`).first()).toBeVisible();
    }
    const repoRow = page.locator('[data-testid="notification-row"][data-type="repo"]').first();
    await expect(repoRow.getByTestId('kind')).toHaveText(/Pull request|Discussion/);
    await expect(repoRow.getByTestId('status')).toHaveText(/draft|open|closed|merged/);
    await expect(
      page.locator('[data-testid="notification-row"][data-type="paper"]').first().getByTestId('kind'),
    ).toHaveText('Paper');
    await expect(
      page.locator('[data-testid="notification-row"][data-type="community_blog"]').first().getByTestId('kind'),
    ).toHaveText('Community blog');
    await expect(rows(page).first().getByTestId('participants')).toHaveAttribute('aria-label', /^Participants: /);
    // Unread markers exactly on the unread rows.
    const unreadRows = page.locator('[data-testid="notification-row"][data-read="false"]');
    await expect(unreadRows.first()).toBeVisible();
    expect(await unreadRows.count()).toBe(await page.getByTestId('unread-marker').count());
    expect(Number(await page.getByTestId('count-all').textContent())).toBeGreaterThanOrEqual(60);
    expect(Number(await page.getByTestId('count-view').textContent())).toBe(
      Number(await page.getByTestId('count-all').textContent()),
    );
  });

  test('renders the XSS seed title as literal text', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(page.getByText(XSS, { exact: true })).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await page.waitForTimeout(300);
    expect(dialogs).toBe(0);
  });

  test('filters live in the URL: a bookmarked filtered view reloads the same', async ({ page, context }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await page.getByLabel('Read status').selectOption('unread');
    await page.getByLabel('Repo type').selectOption('model');
    await expect(page).toHaveURL(/readStatus=unread/);
    await expect(page).toHaveURL(/repoType=model/);
    // The previous rows stay on screen while the filtered page loads; wait for the swap.
    await expect(page.locator('[data-testid="notification-row"]:not([data-type="repo"])')).toHaveCount(0);
    await expect(rows(page).first()).toBeVisible();
    for (const row of await rows(page).all()) {
      await expect(row).toHaveAttribute('data-type', 'repo');
      await expect(row).toHaveAttribute('data-read', 'false');
      await expect(row).toContainText('model ');
    }
    const filteredCount = await rows(page).count();
    const bookmark = page.url();
    await page.reload();
    await expect(page.getByLabel('Read status')).toHaveValue('unread');
    await expect(page.getByLabel('Repo type')).toHaveValue('model');
    await expect(rows(page)).toHaveCount(filteredCount);

    // A new tab has no (session-only) token: sign-in comes first, then the bookmarked view.
    const other = await context.newPage();
    await other.goto(bookmark);
    await expect(other).toHaveURL(/\/sign-in\?next=/);
    await other.getByLabel('Access token').fill(TOKENS.aliceWrite);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other).toHaveURL(bookmark);
    await expect(other.getByLabel('Repo type')).toHaveValue('model');
    await expect(rows(other)).toHaveCount(filteredCount);

    // Text filters apply on Enter and reach the hub.
    await page.getByLabel('Repo name').fill('nobody/nothing');
    await page.getByLabel('Repo name').press('Enter');
    await expect(page).toHaveURL(/repoName=nobody%2Fnothing/);
    await expect(page.getByTestId('empty-state')).toContainText('No notifications match');
    await page.getByRole('button', { name: /Clear 3 filters/ }).click();
    await expect(page).not.toHaveURL(/repoType/);
    await expect(rows(page)).toHaveCount(20);
  });

  test('every shared filter parameter is read from the URL and sent to the hub', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    const seen: string[] = [];
    page.on('request', (r) => r.url().includes('/api/notifications') && seen.push(r.url()));
    const q =
      'readStatus=unread&repoType=dataset&repoName=a%2Fb&postAuthor=dave&paperId=p1&articleId=a1&mention=participating&lastUpdate=2030-01-01T00%3A00%3A00.000Z';
    await page.goto(`/inbox?${q}`);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    const sent = new URL(seen.at(-1)!).searchParams;
    expect(Object.fromEntries(sent)).toMatchObject({
      readStatus: 'unread',
      repoType: 'dataset',
      repoName: 'a/b',
      postAuthor: 'dave',
      paperId: 'p1',
      articleId: 'a1',
      mention: 'participating',
      lastUpdate: '2030-01-01T00:00:00.000Z',
    });
    await expect(page.getByLabel('Post author')).toHaveValue('dave');
    await expect(page.getByLabel('Mention')).toHaveValue('participating');
  });

  test('paginates with p, the next page fetched ahead', async ({ page }) => {
    const prefetched = page.waitForRequest(
      (r) =>
        r.method() === 'GET' &&
        new URL(r.url()).pathname === '/api/notifications' &&
        new URL(r.url()).searchParams.get('p') === '1',
    );
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await prefetched;
    const firstTitle = await rows(page).first().getByTestId('notification-title').textContent();
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect(page).toHaveURL(/[?&]p=1/);
    await expect(page.getByTestId('page-range')).toContainText('21–40');
    await expect(rows(page).first().getByTestId('notification-title')).not.toHaveText(firstTitle!);
    await page.reload();
    await expect(page.getByTestId('page-range')).toContainText('21–40');
    await page.getByRole('button', { name: '← Previous' }).click();
    await expect(page).not.toHaveURL(/[?&]p=/);
  });

  test('marks a row read then unread again, optimistically', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox?readStatus=all');
    const target = await firstUnread(page);
    const unreadBefore = Number(await page.getByTestId('count-unread').textContent());
    await target.getByRole('checkbox').check();
    await expect(page.getByTestId('selection-summary')).toHaveText('1 selected');
    await page.getByRole('button', { name: 'Mark read', exact: true }).click();
    await expect(target).toHaveAttribute('data-read', 'true');
    await expect(page.getByTestId('count-unread')).toHaveText(String(unreadBefore - 1));
    await page.getByRole('button', { name: 'Mark unread', exact: true }).click();
    await expect(target).toHaveAttribute('data-read', 'false');
    await expect(page.getByTestId('count-unread')).toHaveText(String(unreadBefore));
  });

  test('opening a notification on the hub marks it read', async ({ page, request }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    const row = await firstUnread(page);
    const id = (await row.getAttribute('data-id'))!;
    try {
      const popup = page.waitForEvent('popup');
      await row.getByTestId('notification-title').click();
      await (await popup).close();
      await expect(row).toHaveAttribute('data-read', 'true');
    } finally {
      await hubApi(request, TOKENS.aliceWrite).send('POST', '/api/notifications/mark-as-read', {
        discussionIds: [id],
        read: false,
      });
    }
  });

  test('rolls an optimistic change back when the hub answers 500, showing the error', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/notifications/mark-as-read**', async (route) => {
      await held;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        headers: { 'x-request-id': 'req-rollback-1' },
        body: JSON.stringify({ error: 'database on fire' }),
      });
    });
    const row = await firstUnread(page);
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Mark read', exact: true }).click();
    await expect(row).toHaveAttribute('data-read', 'true'); // applied before the hub answers
    release();
    const panel = page.getByTestId('error-panel');
    await expect(panel).toContainText('database on fire');
    await expect(panel).toContainText('HTTP 500');
    await expect(panel.getByTestId('request-id')).toHaveText('req-rollback-1');
    await expect(row).toHaveAttribute('data-read', 'false');
  });

  test('deletes behind a confirmation, and a failed delete restores the row', async ({ page }) => {
    // bob's inbox: nothing else in the suite reads it.
    await signIn(page, TOKENS.bobWrite, '/inbox');
    const all = Number(await page.getByTestId('count-all').textContent());
    const id = await rows(page).first().getAttribute('data-id');
    const row = page.locator(`[data-testid="notification-row"][data-id="${id}"]`);

    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete notifications?' });
    await expect(dialog).toContainText('1 notification');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toHaveCount(1);

    const fault = await failFirst(page, /\/api\/notifications(\?|$)/, { status: 500 }, 1, 'DELETE');
    await page.getByRole('button', { name: 'Delete…' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('error-panel')).toContainText('the notifications were restored');
    await expect(row).toHaveCount(1);
    expect(fault.served()).toBe(1);

    await page.getByRole('button', { name: 'Delete…' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('count-all')).toHaveText(String(all - 1));
    await page.reload();
    await expect(rows(page).first()).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('a notification deleted elsewhere in the meantime does not fail a bulk action on the rest', async ({
    page,
    request,
  }) => {
    // carol's inbox: nothing else in the suite changes it.
    const api = hubApi(request, TOKENS.carolFine);
    await signIn(page, TOKENS.carolFine, '/inbox?readStatus=unread');
    await expect(rows(page).nth(1)).toBeVisible();
    const [gone, kept] = await rows(page).evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute('data-id')!));
    const all = Number(await page.getByTestId('count-all').textContent());
    await api.send('DELETE', '/api/notifications', { discussionIds: [gone] });
    try {
      for (const id of [gone, kept])
        await page.locator(`[data-testid="notification-row"][data-id="${id}"]`).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Mark read', exact: true }).click();
      // The hub ignores the id it no longer has and marks the other; the refetch drops the stale row.
      await expect(page.locator(`[data-testid="notification-row"][data-id="${kept}"]`)).toHaveCount(0);
      await expect(page.locator(`[data-testid="notification-row"][data-id="${gone}"]`)).toHaveCount(0);
      await expect(page.getByTestId('count-all')).toHaveText(String(all - 1));
      await expect(page.getByTestId('error-panel')).toHaveCount(0);
      expect((await allNotifications(api)).find((n) => discussionIdOf(n) === kept)?.read).toBe(true);
    } finally {
      await api.send('POST', '/api/notifications/mark-as-read', { discussionIds: [kept], read: false });
    }
  });

  test('"all matching the filters" marks exactly the matching notifications, then restores', async ({
    page,
    request,
  }) => {
    const api = hubApi(request, TOKENS.aliceWrite);
    const everything = await allNotifications(api);
    const matching = await allNotifications(api, 'mention=participating');
    expect(matching.length).toBeGreaterThan(20);
    try {
      await signIn(page, TOKENS.aliceWrite, '/inbox?mention=participating');
      await page.getByLabel('Select all on this page').check();
      await expect(page.getByTestId('selection-summary')).toHaveText('20 selected');
      await page.getByRole('button', { name: `Select all ${matching.length} matching the filters` }).click();
      await expect(page.getByTestId('selection-summary')).toHaveText(
        `All ${matching.length} matching the filters selected`,
      );
      const sent = page.waitForRequest((r) => r.url().includes('/mark-as-read'));
      await page.getByRole('button', { name: 'Mark read', exact: true }).click();
      const url = new URL((await sent).url());
      expect(url.searchParams.get('applyToAll')).toBe('true');
      expect(url.searchParams.get('mention')).toBe('participating');
      await expect(page.locator('[data-testid="notification-row"][data-read="false"]')).toHaveCount(0);

      const after = await allNotifications(api);
      const matchingIds = new Set(matching.map(discussionIdOf));
      for (const n of after) {
        const before = everything.find((b) => discussionIdOf(b) === discussionIdOf(n))!;
        expect(n.read, discussionIdOf(n)).toBe(matchingIds.has(discussionIdOf(n)) ? true : before.read);
      }
    } finally {
      const unreadBefore = everything.filter((n) => !n.read).map(discussionIdOf);
      if (unreadBefore.length)
        await api.send('POST', '/api/notifications/mark-as-read', { discussionIds: unreadBefore, read: false });
    }
  });

  test('deleting "all matching the filters" sends applyToAll with the filters (answered by the route, hub untouched)', async ({
    page,
  }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox?mention=participating');
    const matching = Number(await page.getByTestId('count-view').textContent());
    let sent: { url: URL; body: unknown } | null = null;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/api\/notifications\?/, async (route) => {
      if (route.request().method() !== 'DELETE') return route.fallback();
      sent = { url: new URL(route.request().url()), body: route.request().postDataJSON() };
      await held;
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ count: matching }) });
    });
    await page.getByLabel('Select all on this page').check();
    await page.getByRole('button', { name: `Select all ${matching} matching the filters` }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete notifications?' });
    await expect(dialog).toContainText(`${matching} notifications`);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => sent).not.toBeNull();
    await expect(rows(page)).toHaveCount(0); // removed before the hub answers
    release();
    expect(sent!.url.searchParams.get('applyToAll')).toBe('true');
    expect(sent!.url.searchParams.get('mention')).toBe('participating');
    expect((sent!.body as { discussionIds: string[] }).discussionIds.length).toBeGreaterThan(0);
    // The hub never saw the delete, so the refetch after it brings the rows back.
    await expect(rows(page)).toHaveCount(20);
  });

  test('a read-only token gets the hub 403 and the change is undone', async ({ page }) => {
    await signIn(page, TOKENS.aliceRead, '/inbox');
    const row = await firstUnread(page);
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Mark read', exact: true }).click();
    const panel = page.getByTestId('error-panel');
    await expect(panel).toContainText('HTTP 403');
    await expect(panel).toContainText('read-only');
    await expect(row).toHaveAttribute('data-read', 'false');
  });

  test('keyboard: j/k move, x selects, r and u mark', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(rows(page)).toHaveCount(20);
    await page.locator('body').press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect(rows(page).nth(1)).toBeFocused();
    await page.keyboard.press('x');
    await expect(page.getByTestId('selection-summary')).toHaveText('1 selected');
    const wasRead = await rows(page).nth(1).getAttribute('data-read');
    await page.keyboard.press(wasRead === 'true' ? 'u' : 'r');
    await expect(rows(page).nth(1)).toHaveAttribute('data-read', wasRead === 'true' ? 'false' : 'true');
    await page.keyboard.press(wasRead === 'true' ? 'r' : 'u');
    await expect(rows(page).nth(1)).toHaveAttribute('data-read', wasRead!);
    await page.keyboard.press('x');
    await expect(page.getByTestId('selection-summary')).toHaveText('Nothing selected');
    await page.getByLabel('Select all on this page').check();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('selection-summary')).toHaveText('Nothing selected');
    await page.keyboard.press('/');
    await expect(page.getByLabel('Repo name')).toBeFocused();
  });

  for (const [name, fault, times] of [
    ['hub 500s', { status: 500, body: JSON.stringify({ error: 'upstream exploded' }) }, 3],
    ['malformed JSON', { status: 200, body: '{"notifications": [' }, 1],
    ['network failures', 'network', 3],
    ['timeouts', 'timeout', 3],
  ] as const) {
    test(`${name} show the error panel, and Retry recovers`, async ({ page }) => {
      await signIn(page, TOKENS.aliceWrite, '/settings');
      // The nav's unread badge reads the notifications too: let it load before the hub breaks.
      await expect(page.getByTestId('inbox-unread-badge')).toBeVisible();
      await failFirst(page, /\/api\/notifications(\?|$)/, fault, times, 'GET');
      await page.getByRole('link', { name: 'Inbox' }).click();
      const panel = page.getByTestId('error-panel');
      await expect(panel).toBeVisible({ timeout: 20_000 });
      if (name === 'hub 500s') {
        await expect(panel).toContainText('upstream exploded');
        await expect(panel.getByTestId('request-id')).toHaveText(/req-e2e-\d/);
      }
      if (name === 'malformed JSON') await expect(panel).toContainText('unexpected shape');
      await panel.getByRole('button', { name: 'Retry' }).click();
      await expect(rows(page)).toHaveCount(20);
      await expect(panel).toHaveCount(0);
    });
  }

  for (const [name, fault] of [
    ['a hub 500', { status: 500 }],
    ['malformed JSON', { status: 200, body: '{"count": ' }],
    ['a timeout', 'timeout'],
  ] as const) {
    test(`mark-as-read failing with ${name} leaves no optimistic change applied`, async ({ page, request }) => {
      await signIn(page, TOKENS.aliceWrite, '/inbox');
      const row = await firstUnread(page);
      const id = (await row.getAttribute('data-id'))!;
      const unread = await page.getByTestId('count-unread').textContent();
      await failFirst(page, '**/api/notifications/mark-as-read**', fault, 1, 'POST');
      await row.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Mark read', exact: true }).click();
      await expect(page.getByTestId('error-panel')).toContainText('the change was undone');
      await expect(row).toHaveAttribute('data-read', 'false');
      await expect(page.getByTestId('count-unread')).toHaveText(unread!);
      const onHub = (await allNotifications(hubApi(request, TOKENS.aliceWrite))).find((n) => discussionIdOf(n) === id);
      expect(onHub?.read).toBe(false);
    });
  }

  test('the token never reaches the URL or the console', async ({ page }) => {
    const lines = captureConsole(page);
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    page.on('framenavigated', (f) => urls.push(f.url()));
    await signIn(page, TOKENS.aliceWrite, '/inbox?readStatus=unread');
    await expect(rows(page).first()).toBeVisible();
    await page
      .getByRole('button', { name: 'Next →' })
      .click()
      .catch(() => undefined);
    for (const u of urls) expect(u).not.toContain(TOKENS.aliceWrite);
    for (const l of lines) expect(l).not.toContain(TOKENS.aliceWrite);
  });

  test('is accessible in light and dark themes', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(rows(page)).toHaveCount(20);
    await rows(page).first().getByRole('checkbox').check();
    await expectAccessibleInBothThemes(page);
  });
});
