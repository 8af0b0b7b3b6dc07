// Routed hub faults for the webhooks, storage, organizations and audit-log specs, and direct
// hub calls for setting up (and cleaning up) each spec's own objects.
import { expect, type APIRequestContext, type Page } from '@playwright/test';

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
    if (fault === 'malformed') return route.fulfill({ status: 200, contentType: 'application/json', body: '{"not json' });
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
