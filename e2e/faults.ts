// Routed hub faults and rewritten hub answers for the page specs, and direct hub calls for setting
// up (and cleaning up) each spec's own objects.
import { expect, type APIRequestContext, type Page, type Request } from '@playwright/test';

export type HubFault = '500' | 'malformed' | 'timeout';

/**
 * Answers every matching request with `fault` until the returned `heal()` is called. Queries
 * retry transient failures, so the fault has to persist until the panel shows.
 */
export async function breakHub(page: Page, url: string | RegExp, fault: HubFault, method = 'GET') {
  let broken = true;
  let served = 0;
  await page.route(url, async (route) => {
    if (!broken || route.request().method() !== method) return route.fallback();
    served++;
    if (fault === 'timeout') return route.abort('timedout');
    if (fault === 'malformed')
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{"not json' });
    return route.fulfill({
      status: 500,
      contentType: 'application/json',
      headers: { 'x-request-id': 'req-e2e-500' },
      body: JSON.stringify({ error: 'injected hub failure' }),
    });
  });
  return {
    served: () => served,
    heal: () => {
      broken = false;
    },
  };
}

/**
 * The hub's JSON answer to each matching GET, edited on its way to the page (status and headers
 * kept): `edit` changes the body in place or returns a new one. Other methods, error answers and
 * requests `when` declines pass through untouched.
 */
export async function rewriteHubJson<T>(
  page: Page,
  url: string | RegExp,
  edit: (body: T, request: Request) => T | void,
  when: (request: Request) => boolean = () => true,
) {
  await page.route(url, async (route) => {
    if (route.request().method() !== 'GET' || !when(route.request())) return route.fallback();
    try {
      const res = await route.fetch();
      if (!res.ok()) return await route.fulfill({ response: res });
      const body = (await res.json()) as T;
      await route.fulfill({ response: res, json: edit(body, route.request()) ?? body });
    } catch (e) {
      // a polled request the page cancels (navigation, refetch) disposes its answer mid-read
      if (!/disposed|closed|aborted|cancel/i.test(String(e))) throw e;
    }
  });
}

/** Checks the error panel for `fault`, then heals the hub and retries from the panel. */
export async function expectErrorPanelThenRecover(page: Page, fault: HubFault, broken: { heal(): void }) {
  const panel = page.getByTestId('error-panel');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  if (fault === '500') {
    await expect(panel).toContainText('HTTP 500');
    await expect(panel).toContainText('injected hub failure');
    await expect(panel.getByTestId('request-id')).toHaveText('req-e2e-500');
  }
  if (fault === 'malformed') await expect(panel).toContainText(/not JSON|unexpected shape/i);
  broken.heal();
  await panel.getByRole('button', { name: 'Retry' }).click();
  await expect(panel).toBeHidden();
}

/** The mock hub, called directly with a demo token. */
export function hub(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async call<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<T> {
      const res = await request.fetch(path, { method, headers, ...(data === undefined ? {} : { data }) });
      expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(200);
      const text = await res.text();
      return (text ? JSON.parse(text) : {}) as T;
    },
  };
}
