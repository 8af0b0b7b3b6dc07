import { expect, test, type Page } from '@playwright/test';
import { breakHub, expectErrorPanelThenRecover, hub } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { captureConsole, signIn, TOKENS } from './support.ts';

interface Webhook {
  id: string;
  disabled: boolean | string;
  url?: string;
}

const rows = (page: Page) => page.getByTestId('webhook-row');

/** Counts the webhook writes the page sends, to prove invalid input never leaves the browser. */
function countWrites(page: Page) {
  let writes = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/settings/webhooks')) writes++;
  });
  return () => writes;
}

test.describe('webhooks', () => {
  test('lists every webhook with its state and last trigger', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/webhooks');
    await expect(rows(page).first()).toBeVisible();
    expect(await rows(page).count()).toBeGreaterThanOrEqual(2);
    const states = await page
      .getByTestId('webhook-state')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(states).toContain('enabled');
    // Suspended is its own badge, not "disabled".
    const suspended = page.locator('[data-state="suspended"]');
    if (await suspended.count()) await expect(suspended.first()).toHaveText(/Suspended after failures/);
    await expect(rows(page).filter({ hasText: 'Job:' }).first()).toBeVisible();
    await expect(
      rows(page)
        .filter({ hasText: /ago|Never|\d{4}/ })
        .first(),
    ).toBeVisible();
    await expectAccessibleInBothThemes(page);
  });

  test('blocks invalid input inline, next to each field, and focuses the first one', async ({ page }) => {
    const writes = countWrites(page);
    await signIn(page, TOKENS.aliceWrite, '/webhooks/new');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const name = page.getByLabel('Watched name 1');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toBeFocused();
    await expect(page.getByLabel('Payload URL')).toHaveAttribute('aria-invalid', 'true');

    await name.fill('alice');
    await page.getByLabel('Watched type 1').selectOption('user');
    await page.getByText('Run a job').click();
    await page.getByLabel('Docker image', { exact: true }).fill('python:3.12');
    await page.getByLabel('Exposed ports').fill('8080, 70000');
    await page.getByRole('button', { name: 'Add label' }).click();
    await page.getByLabel('Labels name 1').fill('bad key!');
    await page.getByLabel('Timeout (seconds)').fill('0');
    await page.getByLabel('Attempts').fill('0');
    await page.getByRole('button', { name: 'Add environment' }).click();
    await page.getByLabel('Environment name 1').fill('A');
    await page.getByRole('button', { name: 'Create webhook' }).click();

    const ports = page.getByLabel('Exposed ports');
    await expect(ports).toHaveAttribute('aria-invalid', 'true');
    await expect(
      page.locator(`#${await ports.getAttribute('aria-describedby').then((d) => d!.split(' ')[0])}`),
    ).toHaveText('ports are 1..65535');
    await expect(page.getByRole('group', { name: 'Labels' })).toContainText('"bad key!": label keys are 1 to 100');
    await expect(page.getByRole('group', { name: 'Environment' })).toContainText(
      '"A": environment keys must start with a letter',
    );
    await expect(page.getByLabel('Timeout (seconds)')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Attempts')).toHaveAttribute('aria-invalid', 'true');
    // The first invalid field in the form gets focus.
    await expect(page.getByLabel('Timeout (seconds)')).toBeFocused();
    expect(writes()).toBe(0);
    // The job editor with its errors showing, in both themes.
    await expectAccessibleInBothThemes(page);
  });

  test('shows a hub 400 next to the field it names', async ({ page }) => {
    await signIn(page, TOKENS.aliceWrite, '/webhooks/new');
    await page.route('**/api/settings/webhooks', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            headers: { 'x-request-id': 'req-400' },
            body: JSON.stringify({ error: 'body.job.expose.ports[0]: port 22 is reserved by the hub' }),
          })
        : route.fallback(),
    );
    await page.getByLabel('Watched name 1').fill('alice/some-model');
    await page.getByText('Run a job').click();
    await page.getByLabel('Docker image', { exact: true }).fill('python:3.12');
    await page.getByLabel('Exposed ports').fill('22');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const ports = page.getByLabel('Exposed ports');
    await expect(ports).toHaveAttribute('aria-invalid', 'true');
    await expect(ports).toBeFocused();
    await expect(page.getByRole('alert').filter({ hasText: 'port 22 is reserved by the hub' })).toBeVisible();
    await expect(page).toHaveURL(/\/webhooks\/new$/);
  });

  test('creates, edits, disables, enables and deletes a webhook (with confirmation)', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const before = await api.call<Webhook[]>('GET', '/api/settings/webhooks');
    await signIn(page, TOKENS.aliceWrite, '/webhooks');
    await page.getByRole('link', { name: 'New webhook' }).click();
    await page.getByLabel('Watched type 1').selectOption('user');
    await page.getByLabel('Watched name 1').fill('alice');
    await page.getByLabel('Discussion events').check();
    await page.getByLabel('Payload URL').fill('https://receiver.example.test/e2e-create');
    await page.getByLabel('Secret', { exact: true }).fill('s3cret value');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByRole('heading', { name: 'Edit webhook' })).toBeVisible();
    const id = page.url().split('/').pop()!;
    const created = await api.call<{ webhook: Webhook }>('GET', `/api/settings/webhooks/${id}`);
    expect(created.webhook.url).toBe('https://receiver.example.test/e2e-create');
    await expect(page.getByTestId('webhook-state')).toHaveAttribute('data-state', 'enabled');

    await page.getByLabel('Payload URL').fill('https://receiver.example.test/e2e-edited');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect((await api.call<{ webhook: Webhook }>('GET', `/api/settings/webhooks/${id}`)).webhook.url).toBe(
      'https://receiver.example.test/e2e-edited',
    );

    await page.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable this webhook?' });
    await expect(dialog).toBeVisible();
    await expectAccessibleInBothThemes(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('webhook-state')).toHaveAttribute('data-state', 'enabled');
    await page.getByRole('button', { name: 'Disable' }).click();
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByTestId('webhook-state')).toHaveAttribute('data-state', 'disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('dialog', { name: 'Enable this webhook?' }).getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByTestId('webhook-state')).toHaveAttribute('data-state', 'enabled');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(rows(page).filter({ hasText: 'e2e-edited' })).toHaveCount(0);
    expect((await api.call<Webhook[]>('GET', '/api/settings/webhooks')).map((w) => w.id).sort()).toEqual(
      before.map((w) => w.id).sort(),
    );
  });

  test.describe('delivery log', () => {
    let receiver: Receiver;
    let receiverUrl = '';
    test.beforeAll(async () => {
      receiver = await startReceiver();
      receiverUrl = receiver.url('/webhooks/e2e');
    });
    test.afterAll(() => receiver.close());

    test('lists deliveries newest first and replays one, showing the HTTP status', async ({ page, request }) => {
      const api = hub(request, TOKENS.aliceWrite);
      const { webhook } = await api.call<{ webhook: Webhook }>('POST', '/api/settings/webhooks', {
        watched: [{ type: 'model', name: 'alice/e2e-delivery-model' }],
        domains: ['repo'],
        url: receiverUrl,
      });
      try {
        receiver.status = 200;
        await api.call('POST', '/api/_mock/events', {
          repo: { type: 'model', name: 'alice/e2e-delivery-model' },
          scope: 'repo',
          action: 'create',
        });
        await expect
          .poll(async () => (await api.call<unknown[]>('GET', `/api/settings/webhooks/${webhook.id}/logs`)).length)
          .toBe(1);
        receiver.status = 503;
        await api.call('POST', '/api/_mock/events', {
          repo: { type: 'model', name: 'alice/e2e-delivery-model' },
          scope: 'repo.content',
          action: 'update',
        });
        await expect
          .poll(async () => (await api.call<unknown[]>('GET', `/api/settings/webhooks/${webhook.id}/logs`)).length)
          .toBe(2);

        await signIn(page, TOKENS.aliceWrite, `/webhooks/${webhook.id}`);
        const deliveries = page.getByTestId('delivery-row');
        await expect(deliveries).toHaveCount(2);
        // Newest first: the failed update, then the create.
        await expect(deliveries.nth(0)).toContainText('repo.content.update');
        await expect(deliveries.nth(0)).toContainText('HTTP 503');
        await expect(deliveries.nth(1)).toContainText('repo.create');
        await expect(deliveries.nth(1)).toContainText('HTTP 200');
        await expect(deliveries.nth(1)).toContainText(receiverUrl);
        await expect(deliveries.nth(1)).toContainText(/\d+ ms/);
        await expectAccessibleInBothThemes(page);

        receiver.status = 202;
        await deliveries
          .nth(0)
          .getByRole('button', { name: /Replay/ })
          .click();
        await expect(page.getByTestId('replay-result').filter({ hasText: 'Replayed: HTTP 202' })).toBeVisible();
        await expect(deliveries).toHaveCount(3);
      } finally {
        await api.call('DELETE', `/api/settings/webhooks/${webhook.id}`);
      }
    });
  });

  test('renders HTML in hub fields as text', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const payload = '<img src=x onerror="window.__xss=1">';
    const { webhook } = await api.call<{ webhook: Webhook }>('POST', '/api/settings/webhooks', {
      watched: [{ type: 'user', name: payload }],
      domains: ['repo'],
      url: 'https://receiver.example.test/xss',
    });
    try {
      await signIn(page, TOKENS.aliceWrite, '/webhooks');
      await expect(rows(page).filter({ hasText: `user:${payload}` })).toBeVisible();
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    } finally {
      await api.call('DELETE', `/api/settings/webhooks/${webhook.id}`);
    }
  });

  for (const fault of ['500', 'malformed', 'timeout'] as const) {
    test(`a hub ${fault} on the list shows the error panel and retry recovers`, async ({ page }) => {
      const log = captureConsole(page);
      await signIn(page, TOKENS.aliceWrite, '/inbox');
      const broken = await breakHub(page, /\/api\/settings\/webhooks$/, fault);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await expectErrorPanelThenRecover(page, fault, broken);
      await expect(rows(page).first()).toBeVisible();
      expect(log.join('\n')).not.toContain(TOKENS.aliceWrite);
    });
  }

  test('a failed disable leaves the webhook as it was and says why', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const w = (await api.call<Webhook[]>('GET', '/api/settings/webhooks')).find((x) => x.disabled === false)!;
    await page.route(`**/api/settings/webhooks/${w.id}/disable`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        headers: { 'x-request-id': 'req-disable' },
        body: JSON.stringify({ error: 'injected disable failure' }),
      }),
    );
    await signIn(page, TOKENS.aliceWrite, `/webhooks/${w.id}`);
    await page.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable this webhook?' });
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('error-panel')).toContainText('injected disable failure');
    await expect(page.getByTestId('webhook-state')).toHaveAttribute('data-state', 'enabled');
    expect((await api.call<{ webhook: Webhook }>('GET', `/api/settings/webhooks/${w.id}`)).webhook.disabled).toBe(
      false,
    );
  });

  test('a read-only token cannot change a webhook and is told why', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const first = (await api.call<Webhook[]>('GET', '/api/settings/webhooks')).find((w) => w.url);
    await signIn(page, TOKENS.aliceRead, `/webhooks/${first!.id}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('error-panel')).toContainText('HTTP 403');
    const after = await api.call<{ webhook: Webhook }>('GET', `/api/settings/webhooks/${first!.id}`);
    expect(after.webhook).toEqual(first);
  });
});

test.describe('webhook jobs', () => {
  test('creates a job webhook with every job field and deletes it', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    await signIn(page, TOKENS.aliceWrite, '/webhooks/new');
    await page.getByLabel('Watched type 1').selectOption('org');
    await page.getByLabel('Watched name 1').fill('acme');
    await page.getByText('Run a job').click();
    await page.getByLabel('Docker image', { exact: true }).fill('python:3.12');
    await page.getByLabel('Flavor').selectOption('t4-small');
    await page.getByLabel('Command').fill('python\n-c\nprint(1)');
    await page.getByLabel('Arguments').fill('--verbose');
    await page.getByLabel('Architecture').selectOption('arm64');
    await page.getByLabel('Timeout (seconds)').fill('900');
    await page.getByLabel('Attempts').fill('3');
    await page.getByLabel('Exposed ports').fill('7860, 8080');
    await page.getByLabel(/Enable SSH/).check();
    await page.getByRole('button', { name: 'Add environment' }).click();
    await page.getByLabel('Environment name 1').fill('LOG_LEVEL');
    await page.getByLabel('Environment value 1').fill('debug');
    await page.getByRole('button', { name: 'Add secret' }).click();
    await page.getByLabel('Secrets name 1').fill('HF_TOKEN');
    await page.getByLabel('Secrets value 1').fill('hf_e2e_secret_value');
    await page.getByRole('button', { name: 'Add label' }).click();
    await page.getByLabel('Labels name 1').fill('team');
    await page.getByLabel('Labels value 1').fill('ml-ops');
    await page.getByRole('button', { name: 'Add volume' }).click();
    await page.getByLabel('Volume 1 type').selectOption('dataset');
    await page.getByLabel('Source', { exact: true }).fill('acme/eval-data');
    await page.getByLabel('Mount path').fill('/data');
    await page.getByLabel('Revision').fill('v1');
    let sent: Record<string, unknown> | null = null;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/settings/webhooks')
        sent = r.postDataJSON() as Record<string, unknown>;
    });
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByRole('heading', { name: 'Edit webhook' })).toBeVisible();
    const id = page.url().split('/').pop()!;
    try {
      expect(sent).toMatchObject({
        watched: [{ type: 'org', name: 'acme' }],
        job: {
          dockerImage: 'python:3.12',
          flavor: 't4-small',
          command: ['python', '-c', 'print(1)'],
          arguments: ['--verbose'],
          arch: 'arm64',
          timeoutSeconds: 900,
          attempts: 3,
          expose: { ports: [7860, 8080] },
          ssh: { enabled: true },
          environment: { LOG_LEVEL: 'debug' },
          secrets: { HF_TOKEN: 'hf_e2e_secret_value' },
          labels: { team: 'ml-ops' },
          volumes: [{ type: 'dataset', source: 'acme/eval-data', mountPath: '/data', revision: 'v1' }],
        },
      });
      const { webhook } = await api.call<{ webhook: { job: Record<string, unknown> } }>(
        'GET',
        `/api/settings/webhooks/${id}`,
      );
      expect(webhook.job).toMatchObject({
        dockerImage: 'python:3.12',
        flavor: 't4-small',
        timeoutSeconds: 900,
        secrets: ['HF_TOKEN'],
        labels: { team: 'ml-ops' },
      });
      // The editor shows the saved job; secret values are never shown back.
      await expect(page.getByLabel('Flavor')).toHaveValue('t4-small');
      await expect(page.getByLabel('Secrets name 1')).toHaveValue('HF_TOKEN');
      await expect(page.getByLabel('Secrets value 1')).toHaveValue('');
    } finally {
      await api.call('DELETE', `/api/settings/webhooks/${id}`);
    }
  });

  test("creates a webhook that copies an existing job (jobSourceId), picked from the user's jobs", async ({
    page,
    request,
  }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const [job] = await api.call<{ id: string }[]>('GET', '/api/jobs/alice');
    await signIn(page, TOKENS.aliceWrite, '/webhooks/new');
    await page.getByLabel('Watched name 1').fill('alice/some-model');
    await page.getByText('Existing job (jobSourceId)').click();
    const field = page.getByLabel('Source job id');
    await expect(page.locator(`datalist option[value="${job!.id}"]`)).toHaveCount(1);
    await field.fill(job!.id);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByRole('heading', { name: 'Edit webhook' })).toBeVisible();
    const id = page.url().split('/').pop()!;
    try {
      const { webhook } = await api.call<{ webhook: { jobSourceId?: string; url?: string } }>(
        'GET',
        `/api/settings/webhooks/${id}`,
      );
      expect(webhook.jobSourceId).toBe(job!.id);
      expect(webhook.url).toBeUndefined();
      await expect(page.getByLabel('Source job id')).toHaveValue(job!.id);
    } finally {
      await api.call('DELETE', `/api/settings/webhooks/${id}`);
    }
  });

  test('an edit that leaves the job alone keeps every stored job field; a changed job says what it replaces and asks for secrets', async ({
    page,
    request,
  }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const job = {
      dockerImage: 'python:3.12',
      command: ['python', 'serve.py'],
      arguments: ['--port', '7860'],
      environment: { LOG_LEVEL: 'debug' },
      secrets: { HF_TOKEN: 'e2e-stored-secret' },
      flavor: 't4-small',
      arch: 'arm64',
      timeoutSeconds: 900,
      attempts: 3,
      labels: { team: 'ml' },
      volumes: [
        { type: 'dataset', source: 'acme/eval-data', mountPath: '/data', revision: 'v1', readOnly: true, path: 'sub' },
        { type: 'bucket', source: 'alice/scratch', mountPath: '/scratch' },
      ],
      expose: { ports: [7860, 8080] },
      ssh: { enabled: true },
    };
    const { webhook } = await api.call<{ webhook: Webhook }>('POST', '/api/settings/webhooks', {
      watched: [{ type: 'org', name: 'acme' }],
      domains: ['repo'],
      job,
      secret: 'hook-secret',
    });
    const storedRequest = () =>
      api.call<{ request: Record<string, unknown>; disabled: unknown }>(
        'GET',
        `/api/_mock/webhooks/${webhook.id}/request`,
      );
    const sent: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === `/api/settings/webhooks/${webhook.id}`)
        sent.push(r.postDataJSON() as Record<string, unknown>);
    });
    try {
      const before = await storedRequest();
      expect(before.request.job).toEqual(job);
      await signIn(page, TOKENS.aliceWrite, `/webhooks/${webhook.id}`);
      // The editor says what it cannot show, and that it is kept while the job is left alone.
      const notice = page.getByTestId('stored-job-notice');
      await expect(notice).toHaveAttribute('data-touched', 'false');
      await expect(notice).toContainText('architecture, attempts, volumes, exposed ports and SSH');
      await expect(notice).toContainText('HF_TOKEN');

      await page.getByLabel('Discussion events').check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toHaveProperty('job');
      expect(await storedRequest()).toEqual({
        ...before,
        request: { ...before.request, domains: ['repo', 'discussion'] },
      });

      // Changing the job: the warning comes before anything is sent, and secret values are asked for.
      await page.getByLabel('Timeout (seconds)').fill('60');
      await expect(notice).toHaveAttribute('data-touched', 'true');
      await expect(notice).toContainText('saving replaces the whole stored job');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('group', { name: 'Secrets' })).toContainText('"HF_TOKEN": enter its value again');
      expect(sent).toHaveLength(1);
      // "Keep the stored job" undoes the job edit; nothing was lost.
      await notice.getByRole('button', { name: 'Keep the stored job' }).click();
      await expect(notice).toHaveAttribute('data-touched', 'false');
      await expect(page.getByLabel('Timeout (seconds)')).toHaveValue('900');
      expect((await storedRequest()).request.job).toEqual(before.request.job);
      await expectAccessibleInBothThemes(page);

      // Saving a changed job with the secret entered again replaces the job as the warning said.
      await page.getByLabel('Timeout (seconds)').fill('60');
      await page.getByLabel('Secrets value 1').fill('e2e-new-secret');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      const { arch: _a, attempts: _t, volumes: _v, expose: _e, ssh: _s, ...shown } = job;
      expect((await storedRequest()).request.job).toEqual({
        ...shown,
        timeoutSeconds: 60,
        attempts: 1,
        secrets: { HF_TOKEN: 'e2e-new-secret' },
      });
    } finally {
      await api.call('DELETE', `/api/settings/webhooks/${webhook.id}`);
    }
  });

  test('a cleared secret is removed on save', async ({ page, request }) => {
    const api = hub(request, TOKENS.aliceWrite);
    const { webhook } = await api.call<{ webhook: Webhook & { secret?: string } }>('POST', '/api/settings/webhooks', {
      watched: [{ type: 'user', name: 'alice' }],
      domains: ['repo'],
      url: 'https://receiver.example.test/secret',
      secret: 'to-remove',
    });
    try {
      await signIn(page, TOKENS.aliceWrite, `/webhooks/${webhook.id}`);
      await page.getByLabel('Secret', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      const after = await api.call<{ webhook: Webhook & { secret?: string } }>(
        'GET',
        `/api/settings/webhooks/${webhook.id}`,
      );
      expect(after.webhook.secret).toBeUndefined();
      expect(after.webhook.url).toBe('https://receiver.example.test/secret');
    } finally {
      await api.call('DELETE', `/api/settings/webhooks/${webhook.id}`);
    }
  });
});
