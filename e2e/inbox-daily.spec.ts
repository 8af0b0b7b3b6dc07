import { expect, test, type Page, type Request } from '@playwright/test';
import { rewriteHubJson } from './faults.ts';
import {
  allNotifications,
  discussionIdOf,
  expectAccessibleInBothThemes,
  hubApi,
  type NotificationItem,
} from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';

const rows = (page: Page) => page.getByTestId('notification-row');
const badge = (page: Page) => page.getByTestId('inbox-unread-badge');
const readState = (ns: NotificationItem[]) => Object.fromEntries(ns.map((n) => [discussionIdOf(n), n.read]));

/** A notification the hub "receives" while the page is open: newer than anything seeded. */
function arrival(i: number) {
  const id = `${'f'.repeat(22)}${String(i).padStart(2, '0')}`;
  return {
    type: 'repo',
    updatedAt: `2030-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
    read: false,
    discussionEventId: 'e'.repeat(24),
    repo: { type: 'model', name: 'acme/arrived-model' },
    discussion: {
      num: 7,
      title: `Arrived while reading ${i}`,
      status: 'open',
      id,
      isPullRequest: false,
      participating: [],
    },
  };
}

/** Every first-page answer of the hub gets the arrivals on top, as if they had just happened. */
async function deliverArrivals(page: Page, arrivals: object[]) {
  const firstPage = (req: Request) => {
    const url = new URL(req.url());
    return Number(url.searchParams.get('p') ?? 0) === 0 && url.searchParams.size <= 1;
  };
  await rewriteHubJson<{ notifications: object[]; count: { view: number; unread: number; all: number } }>(
    page,
    /\/api\/notifications(\?|$)/,
    (body) => {
      const n = arrivals.length;
      return {
        ...body,
        notifications: [...arrivals, ...body.notifications].slice(0, 20),
        count: { view: body.count.view + n, unread: body.count.unread + n, all: body.count.all + n },
      };
    },
    firstPage,
  );
}

test.describe('inbox, daily use', () => {
  test('the unread count is on the Inbox link and in the tab title, and follows changes', async ({ page, request }) => {
    const api = hubApi(request, TOKENS.aliceWrite);
    const { count } = await api.get<{ count: { unread: number } }>('/api/notifications');
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(badge(page)).toHaveAttribute('data-count', String(count.unread));
    await expect(page.getByRole('link', { name: `Inbox ${count.unread} unread` })).toBeVisible();
    await expect(page).toHaveTitle(`(${count.unread}) Settings · Hub Console`);

    await page.getByRole('link', { name: /^Inbox/ }).click();
    const id = await page
      .locator('[data-testid="notification-row"][data-read="false"]')
      .first()
      .getAttribute('data-id');
    try {
      await page.locator(`[data-id="${id}"]`).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Mark read', exact: true }).click();
      await expect(badge(page)).toHaveAttribute('data-count', String(count.unread - 1));
      await expect(page).toHaveTitle(`(${count.unread - 1}) Inbox · Hub Console`);
    } finally {
      await api.send('POST', '/api/notifications/mark-as-read', { discussionIds: [id], read: false });
    }
  });

  test('"Mark all as read" marks exactly the filtered view in one call, and Undo restores exactly', async ({
    page,
    request,
  }) => {
    const api = hubApi(request, TOKENS.aliceWrite);
    const before = await allNotifications(api);
    const matching = await allNotifications(api, 'mention=participating');
    const unreadMatching = matching.filter((n) => !n.read).map(discussionIdOf);
    expect(unreadMatching.length).toBeGreaterThan(0);
    expect(matching.length).toBeGreaterThan(unreadMatching.length); // some were read already: undo must leave them read
    try {
      await signIn(page, TOKENS.aliceWrite, '/inbox?mention=participating');
      await expect(rows(page).first()).toBeVisible();
      const marks: { url: URL; body: unknown }[] = [];
      page.on(
        'request',
        (r) => r.url().includes('/mark-as-read') && marks.push({ url: new URL(r.url()), body: r.postDataJSON() }),
      );

      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(page.getByTestId('mark-all-status')).toHaveText(`Marked ${unreadMatching.length} as read.`);
      await expect(page.locator('[data-testid="notification-row"][data-read="false"]')).toHaveCount(0);
      expect(marks).toHaveLength(1);
      expect(Object.fromEntries(marks[0]!.url.searchParams)).toEqual({ mention: 'participating', applyToAll: 'true' });
      expect(marks[0]!.body).toEqual({ discussionIds: [], read: true });
      const after = readState(await allNotifications(api));
      const matchingIds = new Set(matching.map(discussionIdOf));
      for (const n of before)
        expect(after[discussionIdOf(n)], discussionIdOf(n)).toBe(matchingIds.has(discussionIdOf(n)) ? true : n.read);
      await expectAccessibleInBothThemes(page);

      await page.getByRole('button', { name: 'Undo' }).click();
      await expect(page.getByTestId('mark-all-status')).toHaveText(`Marked ${unreadMatching.length} as unread again.`);
      expect(marks).toHaveLength(2);
      expect((marks[1]!.body as { discussionIds: string[] }).discussionIds.sort()).toEqual([...unreadMatching].sort());
      expect(readState(await allNotifications(api))).toEqual(readState(before));

      // With nothing unread in view, nothing is sent.
      await page.goto('/inbox?mention=participating&readStatus=unread&repoName=nobody%2Fnothing');
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await expect(page.getByTestId('mark-all-status')).toHaveText('Nothing unread here.');
      expect(marks).toHaveLength(2);
    } finally {
      const unreadBefore = before.filter((n) => !n.read).map(discussionIdOf);
      await api.send('POST', '/api/notifications/mark-as-read', { discussionIds: unreadBefore, read: false });
    }
  });

  test('new notifications appear as a banner on focus and every minute; the rows stay put until shown', async ({
    page,
  }) => {
    await page.clock.install();
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(rows(page)).toHaveCount(20);
    const firstId = await rows(page).first().getAttribute('data-id');
    const unread = Number(await badge(page).getAttribute('data-count'));
    const arrivals = [arrival(1)];
    await deliverArrivals(page, arrivals);

    // Coming back to the tab asks the hub again.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
    await expect(page.getByTestId('new-notifications')).toHaveText('1 new notification · Show');
    await expect(badge(page)).toHaveAttribute('data-count', String(unread + 1));
    await expect(rows(page).first()).toHaveAttribute('data-id', firstId!);
    await expectAccessibleInBothThemes(page);

    // A minute later, while the page stays visible, it asks again on its own.
    arrivals.unshift(arrival(2));
    await page.clock.fastForward(60_000);
    await expect(page.getByTestId('new-notifications')).toHaveText('2 new notifications · Show');
    await expect(rows(page).first()).toHaveAttribute('data-id', firstId!);

    await page.getByTestId('new-notifications').click();
    await expect(rows(page).first()).toHaveAttribute('data-id', arrival(2).discussion.id);
    await expect(rows(page).nth(1)).toHaveAttribute('data-id', arrival(1).discussion.id);
    await expect(page.getByTestId('new-notifications')).toHaveCount(0);
  });

  test('each notification links to its place on the hub, a repo comment to the comment itself', async ({
    page,
    request,
    baseURL,
  }) => {
    type Listed = NotificationItem & {
      discussionEventId?: string;
      repo?: { type: string; name: string };
      discussion?: { id: string; num: number };
      post?: { id: string; authorName: string; slug: string };
    };
    const origin = new URL(baseURL!).origin;
    const { notifications } = await hubApi(request, TOKENS.aliceWrite).get<{ notifications: Listed[] }>(
      '/api/notifications',
    );
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await expect(rows(page)).toHaveCount(20);
    const prefix: Record<string, string> = {
      model: '',
      dataset: 'datasets/',
      space: 'spaces/',
      bucket: 'buckets/',
      kernel: 'kernels/',
    };
    let checked = 0;
    for (const n of notifications) {
      const link = page.locator(`[data-testid="notification-row"][data-id="${discussionIdOf(n)}"] a[data-open]`);
      if (n.repo && n.discussion && n.discussionEventId) {
        await expect(link).toHaveAttribute(
          'href',
          `${origin}/${prefix[n.repo.type]}${n.repo.name}/discussions/${n.discussion.num}#${n.discussionEventId}`,
        );
        checked++;
      }
      if (n.post) {
        await expect(link).toHaveAttribute('href', `${origin}/posts/${n.post.authorName}/${n.post.slug}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
