// Jobs: the list with its filters, a webhook-started job's detail, cancel and live logs.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { breakHub, expectErrorPanelThenRecover, hub, rewriteHubJson } from './faults.ts';
import { expectAccessibleInBothThemes } from './page-checks.ts';
import { signIn, TOKENS } from './support.ts';
import { RECORDED_UV_JOB } from '../src/test-support/real-hub-answers.ts';

interface Job {
  id: string;
  createdAt: string;
  status: { stage: string };
  tags?: string[];
}

const rows = (page: Page) => page.getByTestId('job-row');
/** The stage badge in the page header (not those in the list). */
const headerStage = (page: Page) => page.locator('main header').getByTestId('job-stage');
const rowIds = (page: Page) => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-job-id')));
const SECRET_VALUE = 'hf_e2e_secret_value_do_not_show';

/** A job webhook on teamco (nothing else watches it), fired once: the webhook and the job it started. */
async function startWebhookJob(request: APIRequestContext, job: Record<string, unknown>) {
  const api = hub(request, TOKENS.aliceWrite);
  const repo = `teamco/jobs-e2e-${Date.now()}`;
  const { webhook } = await api.call<{ webhook: { id: string } }>('POST', '/api/settings/webhooks', {
    watched: [{ type: 'model', name: repo }],
    domains: ['repo'],
    job: { dockerImage: 'python:3.12', command: ['python', 'serve.py'], flavor: 't4-small', ...job },
  });
  await api.call('POST', '/api/_mock/events', {
    repo: { type: 'model', name: repo },
    scope: 'repo.content',
    action: 'update',
  });
  let jobId: string | undefined;
  await expect
    .poll(async () => {
      const logs = await api.call<{ jobId?: string }[]>('GET', `/api/settings/webhooks/${webhook.id}/logs`);
      jobId = logs[0]?.jobId;
      return jobId;
    })
    .toMatch(/^[0-9a-f]{24}$/);
  return {
    webhookId: webhook.id,
    jobId: jobId!,
    cleanup: () => api.call('DELETE', `/api/settings/webhooks/${webhook.id}`),
  };
}

test.describe('jobs', () => {
  test('lists the caller’s jobs newest first; stage and label filters live in the URL', async ({ page, request }) => {
    const all = await hub(request, TOKENS.aliceWrite).call<Job[]>('GET', '/api/jobs/alice');
    const newestFirst = [...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((j) => j.id);
    await signIn(page, TOKENS.aliceWrite, '/inbox');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page).toHaveTitle(/^(\(\d+\) )?Jobs · Hub Console$/);
    await expect(rows(page)).toHaveCount(all.length);
    expect(await rowIds(page)).toEqual(newestFirst);
    await expect(rows(page).first().getByTestId('job-duration')).not.toHaveText('—');
    await expectAccessibleInBothThemes(page);

    await page.getByLabel('Stage').selectOption('ERROR');
    await expect(page).toHaveURL(/[?&]stage=ERROR/);
    await expect(rows(page)).toHaveCount(all.filter((j) => j.status.stage === 'ERROR').length);
    expect(
      await page.getByTestId('job-stage').evaluateAll((els) => els.map((e) => e.getAttribute('data-stage'))),
    ).toEqual(Array(await rows(page).count()).fill('ERROR'));

    await page.getByRole('button', { name: 'Clear filters' }).click();
    const label = page.getByLabel('Label', { exact: true });
    await label.fill('team');
    await expect(label).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toContainText('key=value');
    await expect(page).not.toHaveURL(/label=/);
    await label.fill('team=ml');
    await label.press('Enter');
    await expect(page).toHaveURL(/[?&]label=team%3Dml/);
    const withLabel = all.filter((j) => j.tags?.includes('team=ml')).map((j) => j.id);
    await expect(rows(page)).toHaveCount(withLabel.length);
    expect((await rowIds(page)).sort()).toEqual(withLabel.sort());

    // Filters survive a reload, and a label chip filters by itself.
    await page.reload();
    await expect(page.getByLabel('Label', { exact: true })).toHaveValue('team=ml');
    await expect(rows(page)).toHaveCount(withLabel.length);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(rows(page)).toHaveCount(all.length);
    await rows(page).getByRole('button', { name: 'team=research' }).click();
    await expect(page).toHaveURL(/label=team%3Dresearch/);
    await expect(rows(page)).toHaveCount(all.filter((j) => j.tags?.includes('team=research')).length);
  });

  test('an organization’s jobs at /orgs/:org/jobs, reached from the namespace picker', async ({ page, request }) => {
    const acme = await hub(request, TOKENS.aliceWrite).call<Job[]>('GET', '/api/jobs/acme');
    await signIn(page, TOKENS.aliceWrite, '/jobs');
    await page.getByLabel('Namespace').selectOption('acme');
    await expect(page).toHaveURL(/\/orgs\/acme\/jobs$/);
    await expect(page.getByRole('heading', { name: 'Jobs · acme' })).toBeVisible();
    // the heading shows before the list's query answers: wait for the rows, not the first read of them
    await expect.poll(() => rowIds(page)).toEqual(acme.map((j) => j.id));
    // `/jobs/<namespace>` alone is that namespace's list.
    await page.goto('/jobs/alice');
    await expect(page).toHaveURL(/\/jobs$/);
    await page.goto('/jobs/acme');
    await expect(page).toHaveURL(/\/orgs\/acme\/jobs$/);
    await rows(page).first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/jobs/acme/${acme[0]!.id}$`));
    await expect(page.getByTestId('volume-row')).toContainText(['model']);
  });

  test('a webhook’s job: stages, access, volumes, secrets by name only, its payload, live logs, then cancel', async ({
    page,
    request,
  }) => {
    const started = await startWebhookJob(request, {
      environment: { LOG_LEVEL: 'debug', MOCK_JOB_RUN_SECONDS: '600' },
      secrets: { HF_TOKEN: SECRET_VALUE },
      labels: { team: 'e2e' },
      expose: { ports: [8080, 7860] },
      ssh: { enabled: true },
      attempts: 2,
      timeoutSeconds: 3600,
      volumes: [
        { type: 'model', source: 'teamco/base-model', mountPath: '/model' },
        { type: 'bucket', source: 'alice/e2e-out', mountPath: '/out' },
      ],
    });
    try {
      const { jobId, webhookId } = started;
      await signIn(page, TOKENS.aliceWrite, '/jobs');
      await rows(page)
        .filter({ has: page.getByRole('link', { name: `Job ${jobId}` }) })
        .getByRole('link')
        .click();
      await expect(page).toHaveURL(new RegExp(`/jobs/alice/${jobId}$`));
      await expect(page).toHaveTitle(new RegExp(`^(\\(\\d+\\) )?Job ${jobId} · Hub Console$`));

      // The stage moves to RUNNING on the page, without a reload.
      await expect(headerStage(page)).toHaveAttribute('data-stage', 'RUNNING');
      await expect(page.locator('[data-testid="timeline-step"][aria-current="step"]')).toContainText('Running');

      await expect(page.getByTestId('expose-urls').getByRole('link')).toHaveText([
        `https://${jobId}--8080.jobs.mock-hub.test`,
        `https://${jobId}--7860.jobs.mock-hub.test`,
      ]);
      await expect(page.getByTestId('ssh-command')).toHaveText(`ssh ${jobId}@ssh.mock-hub.test`);
      await expect(page.getByTestId('volume-row')).toHaveText([
        /model\s*teamco\/base-model\s*\/model\s*main\s*read-only/,
        /bucket\s*alice\/e2e-out\s*\/out\s*—\s*read-write/,
      ]);
      await expect(page.getByTestId('job-environment')).toContainText('LOG_LEVEL');
      await expect(page.getByTestId('job-environment')).toContainText('HF_TOKEN');
      await expect(page.getByTestId('secret')).toHaveText('secret (value hidden)');
      await expect(page.getByTestId('job-details')).toContainText('team=e2e');
      await expect(page.getByTestId('job-attempts')).toHaveText('attempt 1 · 0 failed');
      expect(await page.content()).not.toContain(SECRET_VALUE);

      const payload = page.getByTestId('webhook-payload');
      await expect(payload).toContainText(`"id": "${webhookId}"`);
      expect(JSON.parse((await payload.textContent())!)).toMatchObject({
        event: { scope: 'repo.content', action: 'update' },
        webhook: { id: webhookId },
      });
      await expect(page.getByTestId('payload-webhook-link')).toHaveAttribute('href', `/webhooks/${webhookId}`);

      // Logs follow live: the banner and the command at once, more lines as the job writes them.
      const lines = page.getByTestId('log-line');
      await expect(lines.first()).toContainText('===== Job started');
      await expect(page.getByTestId('job-log')).toContainText('Running python:3.12 $ python serve.py');
      const seen = await lines.count();
      await expect.poll(() => lines.count(), { timeout: 20_000 }).toBeGreaterThan(seen);
      await expect(page.getByTestId('log-status')).toHaveAttribute('data-status', 'streaming');
      await expectAccessibleInBothThemes(page);

      // Cancel: confirm, and the stage moves to CANCELED; the log ends with who canceled.
      await page.getByRole('button', { name: 'Cancel job' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
      await dialog.getByRole('button', { name: 'Cancel job' }).click();
      await expect(dialog).toBeHidden();
      await expect(headerStage(page)).toHaveAttribute('data-stage', 'CANCELED');
      await expect(page.getByRole('button', { name: 'Cancel job' })).toHaveCount(0);
      await expect(lines.last()).toContainText('Canceled by alice');
      await expect(page.getByTestId('log-status')).toHaveAttribute('data-status', 'ended');
      await expect(page.getByTestId('timeline-step').last()).toContainText('Canceled');

      // The link back goes to the webhook that started it.
      await page.getByTestId('payload-webhook-link').click();
      await expect(page).toHaveURL(new RegExp(`/webhooks/${webhookId}$`));

      await page.goto('/jobs?stage=CANCELED');
      await expect(rows(page).filter({ has: page.getByRole('link', { name: `Job ${jobId}` }) })).toHaveCount(1);
    } finally {
      await started.cleanup();
    }
  });

  test('hub failures: the list and a job’s log show the error panel and recover with Retry', async ({ page }) => {
    const list = await breakHub(page, /\/api\/jobs\/alice(\?.*)?$/, '500');
    await signIn(page, TOKENS.aliceWrite, '/jobs');
    await expectErrorPanelThenRecover(page, '500', list);
    await expect(rows(page).first()).toBeVisible();

    const logs = await breakHub(page, /\/api\/jobs\/alice\/[0-9a-f]{24}\/logs(\?.*)?$/, '500');
    await rows(page).last().getByRole('link').click();
    await expect(page.getByTestId('log-status')).toHaveAttribute('data-status', 'error');
    await expectErrorPanelThenRecover(page, '500', logs);
    await expect(page.getByTestId('log-status')).toHaveAttribute('data-status', 'ended');
    await expect(page.getByTestId('log-line').first()).toContainText('===== Job started');

    const detail = await breakHub(page, /\/api\/jobs\/alice\/[0-9a-f]{24}$/, 'malformed');
    await page.reload();
    await expectErrorPanelThenRecover(page, 'malformed', detail);
    await expect(page.getByTestId('job-timeline')).toBeVisible();
  });

  test('a hub whose Job also carries labels and initiator (the real hub’s does): the list and a job show as usual', async ({
    page,
    request,
  }) => {
    const all = await hub(request, TOKENS.aliceWrite).call<Job[]>('GET', '/api/jobs/alice');
    // huggingface_hub's JobInfo reads both fields (src/huggingface_hub/_jobs_api.py); the spec's Job has neither.
    const richer = (j: Job & { createdBy: { id: string; name: string } }) => ({
      ...j,
      labels: { team: 'ml' },
      initiator: { type: 'user', id: j.createdBy.id, name: j.createdBy.name },
    });
    let served = 0;
    await rewriteHubJson<Parameters<typeof richer>[0] | Parameters<typeof richer>[0][]>(
      page,
      /\/api\/jobs\/alice(\/[0-9a-f]{24})?(\?.*)?$/,
      (body) => {
        served++;
        return Array.isArray(body) ? body.map(richer) : richer(body);
      },
    );
    await signIn(page, TOKENS.aliceWrite, '/jobs');
    await expect(rows(page)).toHaveCount(all.length);
    await rows(page).first().getByRole('link').click();
    await expect(page.getByTestId('job-timeline')).toBeVisible();
    await expect(page.getByTestId('error-panel')).toHaveCount(0);
    expect(served).toBeGreaterThanOrEqual(2);
  });

  test('the real hub’s recorded job (secrets as a list), a stage the spec does not list and a job the console cannot read: every job still shows', async ({
    page,
    request,
  }) => {
    const all = await hub(request, TOKENS.aliceWrite).call<Job[]>('GET', '/api/jobs/alice');
    const unreadable = { ...all[0]!, id: 'job-without-a-date', createdAt: 'not a date' };
    await rewriteHubJson<Job[]>(page, /\/api\/jobs\/alice(\?.*)?$/, (body) => [
      { ...body[0]!, status: { ...body[0]!.status, stage: 'UPDATING' } },
      ...body.slice(1),
      RECORDED_UV_JOB as unknown as Job,
      unreadable,
    ]);
    // The recorded job's own page, as the real hub answers it; the other job's page as it cannot be read.
    await page.route(`**/api/jobs/alice/${RECORDED_UV_JOB.id}`, (route) => route.fulfill({ json: RECORDED_UV_JOB }));
    await page.route('**/api/jobs/alice/job-without-a-date', (route) => route.fulfill({ json: unreadable }));
    await signIn(page, TOKENS.aliceWrite, '/jobs');
    await expect(rows(page)).toHaveCount(all.length + 1);
    await expect(page.getByTestId('error-panel')).toHaveCount(0);
    await expect(
      page.locator(`[data-testid="job-row"][data-job-id="${all[0]!.id}"]`).getByTestId('unknown-value'),
    ).toHaveText(/UPDATING/);
    const item = page.getByTestId('unreadable-item');
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId('unreadable-why')).toContainText('createdAt');
    await item.getByText('Raw JSON').click();
    await expect(item.getByTestId('unreadable-raw')).toContainText('"createdAt": "not a date"');
    await expectAccessibleInBothThemes(page);

    await page.locator(`[data-testid="job-row"][data-job-id="${RECORDED_UV_JOB.id}"]`).getByRole('link').click();
    await expect(page.getByTestId('secret')).toHaveCount(2);
    await expect(page.getByText('UV_SCRIPT_HF_TOKEN')).toBeVisible();

    await page.goto('/jobs/alice/job-without-a-date');
    await expect(page.getByTestId('unreadable-record')).toContainText('createdAt');
    await expect(page.locator('dl[aria-label="Fields that could be read"]')).toContainText(all[0]!.id);
    // The list refreshes while a stage is not known to be finished: its rewrite may still be in flight.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('a failed attempt is retried: the page shows the retry, then the job completes', async ({ page, request }) => {
    const started = await startWebhookJob(request, {
      environment: { MOCK_JOB_FAIL_ATTEMPTS: '1', MOCK_JOB_RUN_SECONDS: '1', MOCK_JOB_SCHEDULE_SECONDS: '0.5' },
      attempts: 2,
    });
    try {
      await signIn(page, TOKENS.aliceWrite, `/jobs/alice/${started.jobId}`);
      await expect(headerStage(page)).toHaveAttribute('data-stage', 'COMPLETED', { timeout: 30_000 });
      await expect(page.getByTestId('job-attempts')).toHaveText('attempt 2 · 1 failed · 1 retry');
      await expect(page.getByTestId('job-log')).toContainText('Process exited with code 1');
      await expect(page.getByTestId('job-log')).toContainText('===== Attempt 2 of 2 =====');
      await expect(page.getByTestId('log-line').last()).toContainText('Process exited with code 0');
      await expect(page.getByTestId('payload-webhook-link')).toHaveAttribute('href', `/webhooks/${started.webhookId}`);
    } finally {
      await started.cleanup();
    }
  });
});
