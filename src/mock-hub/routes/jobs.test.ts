import { afterEach, describe, expect, it } from 'vitest';
import { AuditLogEvent, Job, JobLogEvent, WebhookEnvelope, WebhookLogList } from '../../hub/schemas/index.ts';
import type { MockHub } from '../app.ts';
import { eventually } from '../delivery/loopback-harness.ts';
import { attachDeliveries } from '../delivery/registry.ts';
import { SEED_JOB_IDS, SEED_WEBHOOK_IDS } from '../seed/webhooks.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

let hub: MockHub | undefined;
afterEach(async () => {
  if (!hub) return;
  attachDeliveries(hub.context).close();
  await hub.close();
  hub = undefined;
});

/** A seeded hub whose jobs schedule in 20 ms and run `runningMs`, logging every 10 ms. */
async function jobsHub(runningMs = 60) {
  hub = await createHub();
  attachDeliveries(hub.context, { jobTiming: { schedulingMs: 20, runningMs, tickMs: 10 } });
  return hub;
}
const createHub = () => testHub({ now: () => new Date() });

const jobs = async (h: MockHub, query = '', token?: string) => {
  const res = await call(h, 'GET', `/api/jobs/alice${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as unknown[]).map((j) => Job.parse(j));
};

/** Creates a job webhook watching teamco and fires one event: the id of the job it starts. */
async function startJob(h: MockHub, job: object = {}): Promise<{ jobId: string; webhookId: string }> {
  const created = await call(h, 'POST', '/api/settings/webhooks', {
    body: {
      watched: [{ type: 'org', name: 'teamco' }],
      domains: ['repo'],
      job: { dockerImage: 'python:3.12', command: ['python', 'run.py'], flavor: 'cpu-basic', ...job },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const webhookId = WebhookEnvelope.parse(created.body).webhook.id;
  expect(
    (
      await call(h, 'POST', '/api/_mock/events', {
        body: { repo: { type: 'model', name: 'teamco/x' }, scope: 'repo.content', action: 'update' },
      })
    ).status,
  ).toBe(200);
  const entry = await eventually(
    async () => WebhookLogList.parse((await call(h, 'GET', `/api/settings/webhooks/${webhookId}/logs`)).body)[0],
  );
  expect(entry.jobId).toMatch(/^[0-9a-f]{24}$/);
  expect(entry.target).toBe(`job alice/${entry.jobId}`);
  await call(h, 'DELETE', `/api/settings/webhooks/${webhookId}`);
  return { jobId: entry.jobId!, webhookId };
}

const stageOf = async (h: MockHub, id: string, ns = 'alice') =>
  Job.parse((await call(h, 'GET', `/api/jobs/${ns}/${id}`)).body).status.stage;

/** Reads a log stream to its end: its events (comment lines such as keep-alives are skipped). */
async function readStream(res: Response): Promise<JobLogEvent[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JobLogEvent.parse(JSON.parse(block.slice('data: '.length))));
}

describe('GET /api/jobs/{namespace}', () => {
  it('lists newest first and filters by stage (repeatable) and key=value label (all must match)', async () => {
    const h = await createHub();
    hub = h;
    const all = await jobs(h);
    expect(all.map((j) => j.createdAt)).toEqual(
      all
        .map((j) => j.createdAt)
        .sort()
        .reverse(),
    );
    expect((await jobs(h, '?stage=ERROR')).map((j) => j.id)).toEqual([SEED_JOB_IDS.aliceError]);
    expect((await jobs(h, '?stage=ERROR&stage=RUNNING')).map((j) => j.id).sort()).toEqual(
      [SEED_JOB_IDS.aliceError, SEED_JOB_IDS.aliceRunning].sort(),
    );
    expect((await jobs(h, '?label=team%3Dml')).map((j) => j.id)).toEqual([
      SEED_JOB_IDS.aliceCompleted,
      SEED_JOB_IDS.aliceError,
    ]);
    expect((await jobs(h, '?label=team%3Dml&stage=ERROR')).map((j) => j.id)).toEqual([SEED_JOB_IDS.aliceError]);
    expect(await jobs(h, '?label=team%3Dml&label=team%3Dresearch')).toEqual([]);
  });

  it('refuses a bad stage or label, naming the parameter', async () => {
    const h = await createHub();
    hub = h;
    for (const q of ['?stage=DONE', '?label=team', '?label=bad%20key%3Dx', '?stage=RUNNING&stage=nope']) {
      const res = await call(h, 'GET', `/api/jobs/alice${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toMatch(/^query\.(stage|label)/);
    }
  });
});

describe('POST /api/jobs/{namespace}/{jobId}/cancel', () => {
  it('cancels a running job: CANCELED, who did it, finishedAt; again is a no-op; finished jobs are a 409', async () => {
    const h = await createHub();
    hub = h;
    const res = await call(h, 'POST', `/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}/cancel`);
    expect(res.status).toBe(200);
    const canceled = Job.parse(res.body);
    expect(canceled.status).toMatchObject({ stage: 'CANCELED', message: 'Canceled by alice' });
    expect(canceled.finishedAt).toBeDefined();
    expect(Job.parse((await call(h, 'GET', `/api/jobs/alice/${canceled.id}`)).body)).toEqual(canceled);
    expect(Job.parse((await call(h, 'POST', `/api/jobs/alice/${canceled.id}/cancel`)).body)).toEqual(canceled);
    const before = snapshot(h);
    const done = await call(h, 'POST', `/api/jobs/alice/${SEED_JOB_IDS.aliceCompleted}/cancel`);
    expect(done.status).toBe(409);
    expect(done.body.error).toMatch(/is COMPLETED; only a SCHEDULING or RUNNING job can be canceled/);
    expect(snapshot(h)).toBe(before);
  });

  it('needs a write token, membership, and more than the read role in an org; records jobs.cancel there', async () => {
    const h = await createHub();
    hub = h;
    const orgJob = {
      ...Job.parse((await call(h, 'GET', `/api/jobs/acme/${SEED_JOB_IDS.acme}`)).body),
      status: { stage: 'RUNNING' as const, message: null },
    };
    h.store.transaction((s) => void (s.jobs.acme = [orgJob]));
    const before = snapshot(h);
    expect(
      (await call(h, 'POST', `/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}/cancel`, { token: TOKENS.aliceRead }))
        .status,
    ).toBe(403);
    expect(
      (await call(h, 'POST', `/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}/cancel`, { token: TOKENS.bobWrite })).status,
    ).toBe(403);
    const bob = await call(h, 'POST', `/api/jobs/acme/${orgJob.id}/cancel`, { token: TOKENS.bobWrite });
    expect(bob.status).toBe(403);
    expect(bob.body.error).toMatch(/read role/);
    expect((await call(h, 'POST', '/api/jobs/alice/ffffffffffffffffffffffff/cancel')).status).toBe(404);
    expect(snapshot(h)).toBe(before);
    expect((await call(h, 'POST', `/api/jobs/acme/${orgJob.id}/cancel`)).body.status.stage).toBe('CANCELED');
    const audit = h.store.state.auditExtra.acme!.map((e) => AuditLogEvent.parse(e));
    expect(audit[0]).toMatchObject({ type: 'jobs.cancel', author: { user: 'alice' }, data: { jobId: orgJob.id } });
  });

  it('stops a webhook job for good: the runner does not move it on afterwards', async () => {
    const h = await jobsHub(60_000);
    const { jobId } = await startJob(h);
    await eventually(async () => (await stageOf(h, jobId)) === 'RUNNING');
    expect((await call(h, 'POST', `/api/jobs/alice/${jobId}/cancel`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await stageOf(h, jobId)).toBe('CANCELED');
  });
});

describe('GET /api/jobs/{namespace}/{jobId}/logs', () => {
  it('streams a webhook job as it runs and ends the stream when the job ends', async () => {
    const h = await jobsHub(60);
    const { jobId } = await startJob(h, { environment: { MOCK_JOB_FAIL_ATTEMPTS: '1' }, attempts: 2 });
    const res = await h.app.request(`/api/jobs/alice/${jobId}/logs`, {
      headers: { authorization: `Bearer ${TOKENS.aliceWrite}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lines = (await readStream(res)).map((e) => e.data);
    expect(lines[0]).toMatch(/^===== Job started at /);
    expect(lines).toContain('Process exited with code 1');
    expect(lines).toContain('===== Attempt 2 of 2 =====');
    expect(lines.at(-1)).toBe('Process exited with code 0');
    expect(lines.filter((l) => l.startsWith('still running')).length).toBeGreaterThan(0);
    expect(await stageOf(h, jobId)).toBe('COMPLETED');
  });

  it('replays a finished job at once (tail keeps the last lines); a job the runner never ran gets lines from its record', async () => {
    const h = await jobsHub(20);
    const { jobId } = await startJob(h);
    await eventually(async () => (await stageOf(h, jobId)) === 'COMPLETED');
    const get = (path: string) => h.app.request(path, { headers: { authorization: `Bearer ${TOKENS.aliceWrite}` } });
    const full = await readStream(await get(`/api/jobs/alice/${jobId}/logs`));
    expect(await readStream(await get(`/api/jobs/alice/${jobId}/logs?tail=2`))).toEqual(full.slice(-2));
    const seeded = (await readStream(await get(`/api/jobs/alice/${SEED_JOB_IDS.aliceError}/logs`))).map((e) => e.data);
    expect(seeded).toEqual([
      expect.stringMatching(/^===== Job started/),
      'Running python:3.12 $ python train.py',
      'exit code 1',
    ]);
    expect((await get(`/api/jobs/alice/${jobId}/logs?tail=x`)).status).toBe(400);
    expect((await call(h, 'GET', `/api/jobs/alice/${jobId}/logs`, { token: TOKENS.bobWrite })).status).toBe(403);
  });

  it('delivers new lines to a follower of a running job, and ends its stream on cancel', async () => {
    const h = await jobsHub(60_000);
    const { jobId } = await startJob(h);
    const res = await h.app.request(`/api/jobs/alice/${jobId}/logs`, {
      headers: { authorization: `Bearer ${TOKENS.aliceWrite}` },
    });
    const reading = readStream(res);
    await eventually(async () => (await stageOf(h, jobId)) === 'RUNNING');
    await new Promise((r) => setTimeout(r, 50));
    await call(h, 'POST', `/api/jobs/alice/${jobId}/cancel`);
    const lines = (await reading).map((e) => e.data);
    expect(lines[0]).toMatch(/^===== Job started/);
    expect(lines.at(-1)).toBe('Canceled by alice');
  });
});

describe('job webhooks', () => {
  it('seed: alice’s completed job was started by her job webhook, and says so in WEBHOOK_PAYLOAD', async () => {
    const h = await createHub();
    hub = h;
    const job = Job.parse((await call(h, 'GET', `/api/jobs/alice/${SEED_JOB_IDS.aliceCompleted}`)).body);
    expect(JSON.parse(job.environment.WEBHOOK_PAYLOAD!).webhook).toEqual({ id: SEED_WEBHOOK_IDS.aliceJob, version: 3 });
  });
});
