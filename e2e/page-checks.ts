// Helpers for the shell, inbox and settings specs: both themes under axe, routed hub faults,
// and direct hub calls to snapshot/restore state the specs change.
import { type APIRequestContext, type Page, type Route } from '@playwright/test';
import { hub } from './faults.ts';
import { expectAccessible } from './support.ts';

/** Dark mode is class-based (`.dark` on <html>), so flipping the class is what the toggle does. */
export async function expectAccessibleInBothThemes(page: Page) {
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const dark of [false, true]) {
    await page.evaluate((d) => {
      document.documentElement.classList.toggle('dark', d);
      document.documentElement.style.colorScheme = d ? 'dark' : 'light';
    }, dark);
    await expectAccessible(page);
  }
  await page.evaluate((d) => document.documentElement.classList.toggle('dark', d), wasDark);
}

/** An HTTP answer, a dropped connection, or a request that times out. */
export type Fault = { status: number; body?: string; contentType?: string } | 'network' | 'timeout';

/**
 * Answers the first `times` matching requests with `fault`, then lets requests through.
 * Returns a counter of the faults served. GET queries retry transient failures twice, so a
 * panel needs three 5xx in a row.
 */
export async function failFirst(page: Page, url: string | RegExp, fault: Fault, times = 1, method?: string) {
  let served = 0;
  await page.route(url, async (route: Route) => {
    if ((method && route.request().method() !== method) || served >= times) return route.fallback();
    served++;
    if (fault === 'network') return route.abort('connectionreset');
    if (fault === 'timeout') return route.abort('timedout');
    return route.fulfill({
      status: fault.status,
      contentType: fault.contentType ?? 'application/json',
      headers: { 'x-request-id': `req-e2e-${served}` },
      body: fault.body ?? JSON.stringify({ error: `injected failure ${served}` }),
    });
  });
  return { served: () => served };
}

/** Calls the mock hub directly, as the given demo token. */
/** `hub()` with a GET and a write shorthand, as the inbox specs read it. */
export function hubApi(request: APIRequestContext, token: string) {
  const h = hub(request, token);
  return {
    get: <T>(path: string) => h.call<T>('GET', path),
    send: (method: 'POST' | 'PATCH' | 'DELETE', path: string, data: unknown) => h.call(method, path, data),
  };
}

export interface NotificationItem {
  type: string;
  read: boolean;
  discussion?: { id: string };
  paperDiscussion?: { id: string };
  post?: { id: string };
  blog?: { id: string };
}

export const discussionIdOf = (n: NotificationItem) => (n.discussion ?? n.paperDiscussion ?? n.post ?? n.blog)!.id;

/** Every notification matching `query`, all pages. */
export async function allNotifications(api: ReturnType<typeof hubApi>, query = ''): Promise<NotificationItem[]> {
  const out: NotificationItem[] = [];
  for (let p = 0; ; p++) {
    const sep = query ? '&' : '';
    const page = await api.get<{ notifications: NotificationItem[]; count: { view: number } }>(
      `/api/notifications?${query}${sep}p=${p}`,
    );
    out.push(...page.notifications);
    if (out.length >= page.count.view || page.notifications.length === 0) return out;
  }
}
