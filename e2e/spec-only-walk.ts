// The walk through every page that the spec-only project and the proxied console (hub-proxy.spec.ts)
// both run: each page loads against a hub that has only what the real hub has, and says in one line
// what that hub does not expose.
import { expect, type Page } from '@playwright/test';

const ALICE_URL_WEBHOOK = 'e857a8431ff820c91a81398e';

/** Fails on uncaught page errors (a page that throws). */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/** The page finished loading: no skeleton left, no error panel, no raw hub error in the text. */
async function expectSettled(page: Page, path: string) {
  await expect(page.getByTestId('skeleton'), `${path}: still loading`).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('error-panel'), `${path}: error panel`).toHaveCount(0);
  await expect(page.locator('main'), `${path}: raw error`).not.toContainText(/no route |HTTP 404|failed with 404/);
}

export const notExposed = (page: Page) => page.getByTestId('not-exposed');

/** Opens every page of the signed-in console in turn and checks each one settled. */
export async function walkEveryPage(page: Page) {
  const pages: [string, string[], (p: Page) => Promise<void>][] = [
    ['/inbox', [], (p) => expect(p.getByTestId('notification-row').first()).toBeVisible()],
    [
      '/settings',
      ['the current notification settings', 'your current watch list'],
      (p) => expect(p.getByTestId('builtin-tools')).toBeVisible(),
    ],
    ['/webhooks', [], (p) => expect(p.getByTestId('webhook-row').first()).toBeVisible()],
    ['/webhooks/new', [], (p) => expect(p.getByRole('form', { name: 'Webhook editor' })).toBeVisible()],
    [
      `/webhooks/${ALICE_URL_WEBHOOK}`,
      ['the delivery log'],
      (p) => expect(p.getByRole('form', { name: 'Replay a delivery' })).toBeVisible(),
    ],
    [
      `/webhooks/${ALICE_URL_WEBHOOK}/deliveries/ffffffffffffffffffffffff`,
      [],
      (p) => expect(p.getByTestId('delivery-missing')).toBeVisible(),
    ],
    ['/storage', [], (p) => expect(p.getByTestId('usage-row').first()).toBeVisible()],
    ['/jobs', [], (p) => expect(p.getByTestId('job-row').first()).toBeVisible()],
    ['/jobs/alice/1da67e5b2fa3928b84b4738c', [], (p) => expect(p.getByTestId('job-timeline')).toBeVisible()],
    [
      '/orgs/acme',
      ['the list of resource groups'],
      (p) => expect(p.getByRole('form', { name: 'Revoke a member token' })).toBeVisible(),
    ],
    [
      '/orgs/acme/audit-log',
      [],
      (p) => expect(p.getByTestId('audit-count')).toHaveAttribute('data-complete', 'true', { timeout: 60_000 }),
    ],
    ['/preview', [], (p) => expect(p.getByRole('heading', { name: 'Model preview' })).toBeVisible()],
  ];
  for (const [path, missing, loaded] of pages) {
    await page.goto(path);
    await loaded(page);
    await expectSettled(page, path);
    await expect(notExposed(page), path).toHaveCount(missing.length);
    for (const what of missing)
      await expect(notExposed(page).filter({ hasText: `This hub does not expose ${what}` }), path).toHaveCount(1);
  }
}
