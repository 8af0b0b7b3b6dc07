import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { hub, rewriteHubJson } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { signIn, TOKENS } from './support.ts';

interface LogEntry {
  id: string;
  status: number | null;
  replayOf?: string;
  test?: boolean;
}

const SECRET = 'e2e-inspector-secret';
const rows = (page: Page) => page.getByTestId('delivery-row');

test.describe('delivery inspector', () => {
  let receiver: Receiver;
  let receiverUrl = '';
  test.beforeAll(async () => {
    // Its body names the status, so the page can show what came back.
    receiver = await startReceiver((status) => JSON.stringify({ receivedBy: 'e2e receiver', status }));
    receiverUrl = receiver.url('/webhooks/inspect');
  });
  test.afterAll(() => receiver.close());
  test.beforeEach(() => {
    receiver.status = 200;
  });

  async function withWebhook(
    request: APIRequestContext,
    body: object,
    run: (id: string, api: ReturnType<typeof hub>) => Promise<void>,
  ) {
    const api = hub(request, TOKENS.aliceWrite);
    const { webhook } = await api.call<{ webhook: { id: string } }>('POST', '/api/settings/webhooks', body);
    try {
      await run(webhook.id, api);
    } finally {
      await api.call('DELETE', `/api/settings/webhooks/${webhook.id}`);
    }
  }
  async function deliver(api: ReturnType<typeof hub>, id: string, repo: string, n: number) {
    await api.call('POST', '/api/_mock/events', {
      repo: { type: 'model', name: repo },
      scope: 'repo.content',
      action: 'update',
    });
    await expect
      .poll(async () => (await api.call<LogEntry[]>('GET', `/api/settings/webhooks/${id}/logs`)).length)
      .toBe(n);
    return api.call<LogEntry[]>('GET', `/api/settings/webhooks/${id}/logs`);
  }

  test('a delivery opens its detail: payload, masked secret, status, timing, answer; replay from it', async ({
    page,
    request,
    baseURL,
  }) => {
    const repo = 'alice/e2e-inspect-model';
    await withWebhook(
      request,
      { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: receiverUrl, secret: SECRET },
      async (id, api) => {
        const [entry] = await deliver(api, id, repo, 1);
        await signIn(page, TOKENS.aliceWrite, `/webhooks/${id}`);
        await rows(page)
          .first()
          .getByRole('link', { name: /details/ })
          .click();
        await expect(page).toHaveURL(new RegExp(`/webhooks/${id}/deliveries/${entry!.id}$`));
        await expect(page.getByRole('heading', { name: 'Delivery', exact: true })).toBeVisible();

        const summary = page.getByTestId('delivery-summary');
        await expect(summary).toContainText('repo.content');
        await expect(summary).toContainText('update');
        await expect(summary.getByRole('link', { name: `model ${repo}` })).toHaveAttribute(
          'href',
          `${new URL(baseURL!).origin}/${repo}`,
        );
        await expect(summary.getByTestId('delivery-status')).toHaveText('HTTP 200');
        await expect(summary).toContainText(/Response time\s*\d+ ms/);
        await expect(summary).toContainText('None: delivered.');
        await expect(summary).toContainText(receiverUrl);

        // The payload as the receiver got it, pretty-printed; the secret only masked.
        const payload = page.getByTestId('payload');
        await expect(payload).toContainText('"scope": "repo.content"');
        await expect(payload).toContainText(`"name": "${repo}"`);
        await expect(page.getByTestId('request-headers').getByRole('row', { name: /x-webhook-secret/ })).toContainText(
          '••••••••',
        );
        expect(await page.content()).not.toContain(SECRET);
        await expect(page.getByTestId('response-body')).toHaveText(
          JSON.stringify({ receivedBy: 'e2e receiver', status: 200 }),
        );
        await expectAccessibleInBothThemes(page);

        receiver.status = 202;
        await page.getByRole('button', { name: 'Replay' }).click();
        await expect(page.getByTestId('replay-result')).toContainText('Replayed: HTTP 202');
        await page.getByRole('link', { name: 'View the replay' }).click();
        await expect(page.getByTestId('delivery-summary').getByTestId('delivery-status')).toHaveText('HTTP 202');
        await expect(page.getByTestId('delivery-summary')).toContainText('replay');
        await page.getByRole('link', { name: 'the original delivery' }).click();
        await expect(page).toHaveURL(new RegExp(`/deliveries/${entry!.id}$`));
      },
    );
  });

  test('filters the log by outcome, and a failed delivery says why', async ({ page, request }) => {
    const repo = 'alice/e2e-outcome-model';
    await withWebhook(
      request,
      { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: receiverUrl },
      async (id, api) => {
        await deliver(api, id, repo, 1);
        receiver.status = 503;
        await deliver(api, id, repo, 2);
        await deliver(api, id, repo, 3);
        await signIn(page, TOKENS.aliceWrite, `/webhooks/${id}`);
        await expect(rows(page)).toHaveCount(3);

        await page.getByText('Failed (2)').click();
        await expect(page).toHaveURL(/outcome=failed/);
        await expect(rows(page)).toHaveCount(2);
        for (const row of await rows(page).all())
          await expect(row.getByTestId('delivery-status')).toHaveAttribute('data-outcome', 'failed');
        await page.reload();
        await expect(page.getByRole('radio', { name: /Failed/ })).toBeChecked();
        await expect(rows(page)).toHaveCount(2);
        await page.getByText('Succeeded (1)').click();
        await expect(rows(page)).toHaveCount(1);
        await expect(rows(page).first().getByTestId('delivery-status')).toHaveText('HTTP 200');
        await page.getByText('All (3)').click();
        await expect(page).not.toHaveURL(/outcome=/);
        await expect(rows(page)).toHaveCount(3);

        await rows(page)
          .first()
          .getByRole('link', { name: /details/ })
          .click();
        await expect(page.getByTestId('failure-reason')).toContainText(
          'Non-2xx answer. The receiver answered HTTP 503',
        );
        await expect(page.getByTestId('response-body')).toContainText('"status":503');
      },
    );
  });

  test('"Send test event" delivers a sample and the entry appears without a reload', async ({ page, request }) => {
    const repo = 'alice/e2e-test-event-model';
    await withWebhook(
      request,
      { watched: [{ type: 'model', name: repo }], domains: ['repo'], url: receiverUrl },
      async (id, api) => {
        await signIn(page, TOKENS.aliceWrite, `/webhooks/${id}`);
        await expect(page.getByTestId('empty-state')).toContainText('No deliveries yet');
        await page.evaluate(() => ((window as { __samePage?: boolean }).__samePage = true));
        // A repo-only webhook is offered repo samples only.
        const sample = page.getByLabel('Sample event');
        await expect(sample.locator('option')).toHaveText([
          /^Repository created/,
          /^Push to main/,
          /^Settings changed/,
        ]);
        await sample.selectOption({ label: 'Push to main (repo.content · update)' });
        await page.getByRole('button', { name: 'Send test event' }).click();
        await expect(page.getByTestId('test-event-result')).toContainText('Test event delivered: HTTP 200');
        await expect(rows(page)).toHaveCount(1);
        await expect(rows(page).first()).toContainText('repo.content.update');
        await expect(rows(page).first()).toContainText('test');
        await expect(rows(page).first()).toContainText(repo);
        expect(await page.evaluate(() => (window as { __samePage?: boolean }).__samePage)).toBe(true);
        const logs = await api.call<LogEntry[]>('GET', `/api/settings/webhooks/${id}/logs`);
        expect(logs).toEqual([expect.objectContaining({ test: true, status: 200 })]);
        await page.getByRole('link', { name: 'View delivery' }).click();
        await expect(page).toHaveURL(new RegExp(`/deliveries/${logs[0]!.id}$`));
      },
    );
  });

  test('a hub without the delivery log: no test button, one line says why, the rest works', async ({ page }) => {
    await page.route(/\/api\/settings\/webhooks\/[0-9a-f]+\/logs$/, (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'no route GET on this hub' }),
      }),
    );
    await signIn(page, TOKENS.aliceWrite, '/webhooks');
    await page.getByTestId('webhook-row').first().getByRole('link').click();
    await expect(page.getByTestId('not-exposed')).toContainText('This hub does not expose the delivery log');
    await expect(page.getByRole('button', { name: 'Send test event' })).toHaveCount(0);
    await expect(page.getByTestId('error-panel')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();
    await expectAccessibleInBothThemes(page);
  });

  test('a job webhook’s delivery links to the job it started', async ({ page, request }) => {
    const repo = 'alice/e2e-job-delivery-model';
    await withWebhook(
      request,
      {
        watched: [{ type: 'model', name: repo }],
        domains: ['repo'],
        job: { dockerImage: 'python:3.12', flavor: 'cpu-basic' },
      },
      async (id, api) => {
        const [entry] = await deliver(api, id, repo, 1);
        await signIn(page, TOKENS.aliceWrite, `/webhooks/${id}/deliveries/${entry!.id}`);
        const job = page.getByTestId('job-link');
        await expect(job).toHaveAttribute('href', /^\/jobs\/alice\/[0-9a-f]{24}$/);
        await expect(page.getByText('No HTTP request: this webhook starts a job')).toBeVisible();
        await expect(page.getByTestId('payload')).toContainText(`"name": "${repo}"`);

        // A log that records jobId links by it.
        const jobId = 'abcdef0123456789abcdef01';
        await rewriteHubJson<object>(page, `**/api/settings/webhooks/${id}/logs/${entry!.id}`, (logged) => ({
          ...logged,
          target: 'job',
          jobId,
        }));
        await page.reload();
        await expect(page.getByTestId('job-link')).toHaveAttribute('href', `/jobs/alice/${jobId}`);
      },
    );
  });
});
