// Every page against a hub that has only what the real hub has (`serve.ts --spec-only`: the mock's
// own reads such as the current settings, the watch list, the delivery log and the resource group
// list answer 404 as unknown routes). Run by the `spec-only` Playwright project on its own server.
import { expect, test } from '@playwright/test';
import { hub } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { startReceiver } from './receiver.ts';
import { notExposed, walkEveryPage, watchPageErrors } from './spec-only-walk.ts';
import { signIn, TOKENS } from './support.ts';

const ACME_PRODUCTION = '4d84526ba3da2a13be1b6d80';
const TEAMCO_CORE = '0912961c20ad5d38a155fe0b';

test.describe('against a spec-only hub', () => {
  test('every page loads, and says in one line what this hub does not expose', async ({ page }) => {
    const errors = watchPageErrors(page);
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await walkEveryPage(page);
    expect(errors).toEqual([]);
  });

  test('settings: each flag is leave unchanged / on / off, and Save sends only the flags set', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    await expect(notExposed(page).first()).toBeVisible();
    const isPatch = (r: { method(): string; url(): string }) =>
      r.method() === 'PATCH' && r.url().endsWith('/api/settings/notifications');
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (isPatch(r)) sent.push(r.postDataJSON());
    });
    const flag = (name: string) => page.getByTestId(`tri-state-${name}`);
    await expect(flag('announcements').getByLabel('Leave unchanged')).toBeChecked();
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    await flag('announcements').getByLabel('Off').check();
    await flag('daily_papers_digest').getByLabel('On').check();
    await flag('secret_detected').getByLabel('Off').check();
    await flag('secret_detected').getByLabel('Leave unchanged').check();
    // Prepaid credits on needs an amount, as when the values are known.
    await flag('launch_prepaid_credits').getByLabel('On').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByLabel('Prepaid amount')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toHaveLength(0);
    await flag('launch_prepaid_credits').getByLabel('Leave unchanged').check();
    await expectAccessibleInBothThemes(page);

    const answer = page.waitForResponse((r) => isPatch(r.request()));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('settings-status')).toHaveText('Saved.');
    expect(sent).toEqual([{ notifications: { announcements: false, daily_papers_digest: true } }]);
    // The hub kept every flag the user did not set (seed: secret_detected on, org_request on).
    expect(((await (await answer).json()) as { notifications: object }).notifications).toMatchObject({
      announcements: false,
      daily_papers_digest: true,
      secret_detected: true,
      org_request: true,
    });
    // What was set stays shown; a second save with nothing new is not offered.
    await expect(flag('announcements').getByLabel('Off')).toBeChecked();
    await expect(flag('secret_detected').getByLabel('Leave unchanged')).toBeChecked();
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  });

  test('watch list: add and stop watching by type and name, without the list', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/settings');
    // Pushed in the order the answers come, read once they are in.
    const answers: Promise<{ watched: { type: string; id: string }[] }>[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'PATCH' && r.url().endsWith('/api/settings/watch')) answers.push(r.json());
    });
    const form = page.getByRole('form', { name: 'Add to watch list' });
    await form.getByLabel('Type').selectOption('user');
    await form.getByLabel('Name').fill('bob');
    await form.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect(page.getByTestId('watch-changes')).toContainText('Now watching user bob');
    await form.getByLabel('Type').selectOption('org');
    await form.getByLabel('Name').fill('acme');
    await form.getByRole('button', { name: 'Stop watching' }).click();
    await expect(page.getByTestId('watch-changes')).toContainText('Stopped watching organization acme');
    await expect.poll(() => answers.length).toBe(2);
    const { watched } = await answers[1]!;
    expect(watched).toContainEqual({ type: 'user', id: 'bob' });
    expect(watched).not.toContainEqual({ type: 'org', id: 'acme' });
    // A name that does not exist: the hub's answer, the form still there.
    await form.getByLabel('Type').selectOption('user');
    await form.getByLabel('Name').fill('nobody-by-this-name');
    await form.getByRole('button', { name: 'Watch', exact: true }).click();
    await expect(page.getByTestId('error-panel')).toContainText('nobody-by-this-name');
  });

  test('resource groups: open one by id (typed or from the address), rename and delete it', async ({
    page,
    request,
  }) => {
    const api = hub(request, TOKENS.aliceWrite);
    await signIn(page, TOKENS.aliceWrite, '/orgs/acme');
    const open = page.getByRole('form', { name: 'Open a resource group' });
    await open.getByLabel('Resource group id').fill('not-an-id');
    await open.getByRole('button', { name: 'Open group' }).click();
    await expect(open.getByRole('alert')).toContainText('24 hexadecimal characters');
    await open.getByLabel('Resource group id').fill(ACME_PRODUCTION);
    await open.getByRole('button', { name: 'Open group' }).click();
    await expect(page).toHaveURL(new RegExp(`/orgs/acme/resource-groups/${ACME_PRODUCTION}$`));
    const detail = page.getByTestId('group-detail');
    await expect(detail.getByRole('heading', { name: 'Production' })).toBeVisible();
    await detail.getByLabel('Name').fill('Production (renamed)');
    await detail.getByRole('button', { name: 'Save' }).click();
    await expect(detail.getByRole('heading', { name: 'Production (renamed)' })).toBeVisible();
    expect(
      (await api.call<{ name: string }>('GET', `/api/organizations/acme/resource-groups/${ACME_PRODUCTION}`)).name,
    ).toBe('Production (renamed)');
    await expectAccessibleInBothThemes(page);

    await page.goto(`/orgs/teamco/resource-groups/${TEAMCO_CORE}`);
    await detail.getByRole('button', { name: 'Delete group' }).click();
    await page.getByRole('dialog', { name: 'Delete Core?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/orgs\/teamco$/);
    await expect(page.getByRole('form', { name: 'Open a resource group' })).toBeVisible();
    // asked from the page: the request context's pooled socket has been idle past the server's keep-alive timeout
    // here (the accessibility checks), and Node's client does not retry a reused socket the server just closed
    const gone = await page.evaluate(
      async ([url, token]) => (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).status,
      [`/api/organizations/teamco/resource-groups/${TEAMCO_CORE}`, TOKENS.aliceWrite] as const,
    );
    expect(gone).toBe(404);
  });

  test('webhook delivery log: explained as unavailable, and a delivery is replayed by its log id', async ({
    page,
    request,
  }) => {
    const receiver = await startReceiver();
    receiver.status = 202;
    const api = hub(request, TOKENS.aliceWrite);
    try {
      const { webhook } = await api.call<{ webhook: { id: string } }>('POST', '/api/settings/webhooks', {
        watched: [{ type: 'model', name: 'alice/spec-only-model' }],
        domains: ['repo'],
        url: receiver.url('/webhooks/spec-only'),
      });
      const { reached } = await api.call<{ reached: { webhookId: string; logId: string }[] }>(
        'POST',
        '/api/_mock/events',
        { repo: { type: 'model', name: 'alice/spec-only-model' }, scope: 'repo', action: 'create' },
      );
      // Other webhooks of alice's watch her repos too; this one's delivery is the one to replay.
      const { logId } = reached.find((r) => r.webhookId === webhook.id)!;
      await expect.poll(() => receiver.received).toBe(1);
      await signIn(page, TOKENS.aliceWrite, `/webhooks/${webhook.id}`);
      await expect(notExposed(page)).toContainText('This hub does not expose the delivery log');
      const form = page.getByRole('form', { name: 'Replay a delivery' });
      await form.getByRole('button', { name: 'Replay' }).click();
      await expect(form.getByRole('alert')).toContainText('Enter the log id');
      await form.getByLabel('Delivery log id').fill('ffffffffffffffffffffffff');
      await form.getByRole('button', { name: 'Replay' }).click();
      await expect(form.getByTestId('replay-result')).toContainText('Replay failed');
      await form.getByLabel('Delivery log id').fill(logId);
      await form.getByRole('button', { name: 'Replay' }).click();
      await expect(form.getByTestId('replay-result')).toHaveText(`Replayed ${logId}: HTTP 202`);
      expect(receiver.received).toBe(2);
      await expectAccessibleInBothThemes(page);
    } finally {
      await receiver.close();
    }
  });
});
