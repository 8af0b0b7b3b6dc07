// Writes docs/screenshots/<page>-<light|dark>.png for every dashboard page (npm run screenshots).
import { expect, test, type Page } from '@playwright/test';
import { webgpuLaunch } from '../playwright.config.ts';
import { SEED_JOB_IDS } from '../src/mock-hub/seed/webhooks.ts';
import { hub } from './faults.ts';
import { startReceiver } from './receiver.ts';
import { signIn, TOKENS } from './support.ts';

test.skip(process.env.SCREENSHOTS !== '1', 'screenshots only with SCREENSHOTS=1 (npm run screenshots)');
// The preview page as on a machine with WebGPU.
test.use({ viewport: { width: 1280, height: 800 }, launchOptions: webgpuLaunch });

const PAGES: { name: string; path: string; ready?: (page: Page) => Promise<void> }[] = [
  { name: 'inbox', path: '/inbox', ready: (p) => expect(p.getByTestId('notification-row').first()).toBeVisible() },
  { name: 'settings', path: '/settings', ready: (p) => expect(p.getByRole('switch').first()).toBeVisible() },
  { name: 'webhooks', path: '/webhooks' },
  { name: 'webhook-editor', path: '/webhooks/new' },
  { name: 'jobs', path: '/jobs', ready: (p) => expect(p.getByTestId('job-row').first()).toBeVisible() },
  // The seeded job alice's job webhook started (payload, retry, secrets); its log is replayed and ends.
  {
    name: 'job-detail',
    path: `/jobs/alice/${SEED_JOB_IDS.aliceCompleted}`,
    ready: (p) => expect(p.getByTestId('log-status')).toHaveAttribute('data-status', 'ended'),
  },
  { name: 'storage', path: '/storage' },
  { name: 'organization', path: '/orgs/acme' },
  { name: 'audit-log', path: '/orgs/acme/audit-log' },
  { name: 'preview', path: '/preview' },
];

/** Loaded enough to be worth a picture: no skeletons left, the network quiet for a moment. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await expect(page.getByTestId('skeleton'))
    .toHaveCount(0, { timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForTimeout(300);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('hub-console.theme', t), theme);
    });

    test('sign-in', async ({ page }) => {
      await page.goto('/sign-in');
      await expect(page.getByRole('heading', { name: 'Sign in to Hub Console' })).toBeVisible();
      await page.screenshot({ path: `docs/screenshots/sign-in-${theme}.png` });
    });

    test('a delivery of a webhook', async ({ page, request }) => {
      // A receiver on loopback answers the test event, so the detail shows a real exchange.
      const receiver = await startReceiver(() => '{"ok":true,"handled":"repo.content.update"}');
      const api = hub(request, TOKENS.aliceWrite);
      const url = receiver.url('/webhooks/deploy');
      const { webhook } = await api.call<{ webhook: { id: string } }>('POST', '/api/settings/webhooks', {
        watched: [{ type: 'model', name: 'alice/llama-vision-model' }],
        domains: ['repo', 'discussion'],
        url,
        secret: 'screenshot-secret',
      });
      try {
        const { logId } = await api.call<{ logId: string }>('POST', `/api/_mock/webhooks/${webhook.id}/test`, {
          sample: 'repo-update',
        });
        await signIn(page, TOKENS.aliceWrite, `/webhooks/${webhook.id}/deliveries/${logId}`);
        await expect(page.getByTestId('payload')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: `docs/screenshots/delivery-detail-${theme}.png` });
      } finally {
        await api.call('DELETE', `/api/settings/webhooks/${webhook.id}`);
        await receiver.close();
      }
    });

    test('dashboard pages', async ({ page }) => {
      await signIn(page, TOKENS.aliceWrite, '/inbox');
      for (const p of PAGES) {
        await page.goto(p.path);
        await p.ready?.(page);
        await settle(page);
        await page.screenshot({ path: `docs/screenshots/${p.name}-${theme}.png` });
      }
    });
  });
}
