import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Job } from '../../hub/schemas/job.ts';
import type { WebhookJob, WebhookJobRequest } from '../../hub/schemas/webhook-job.ts';
import { JobRunner, type Principal } from './job-runner.ts';
import { exposeUrl, sshUrl, templateFromJob, templateFromWebhookJob, type JobTemplate } from './job-template.ts';

const owner: Principal = { id: '1'.repeat(24), name: 'alice', type: 'user' };
const webhookJob: WebhookJob = {
  dockerImage: 'python:3.12',
  command: ['python', 'x.py'],
  environment: { LOG_LEVEL: 'info' },
  flavor: 'cpu-basic',
  timeoutSeconds: 60,
  secrets: ['HF_TOKEN'],
};
const payload = JSON.stringify({
  event: { scope: 'repo.content', action: 'update' },
  repo: { type: 'model', name: 'acme/m' },
  webhook: { id: 'w'.repeat(24), version: 3 },
});

/** Timings of the default plan: 1 s scheduling, 3 s running, a log line each second. */
function runner() {
  const stored = new Map<string, Job>();
  const history: Job[] = [];
  const r = new JobRunner({
    save: (j) => {
      history.push(j);
      stored.set(j.id, j);
    },
    load: (id) => stored.get(id),
  });
  const stages = (id: string) => history.filter((j) => j.id === id).map((j) => j.status.stage);
  return { r, stored, history, stages };
}

/** A webhook job as stored: the response shape (timeout, labels) and the create request beside it. */
function template(env: Record<string, string> = {}, request: Partial<WebhookJobRequest> = {}): JobTemplate {
  const environment = { ...webhookJob.environment, ...env };
  const req = { ...webhookJob, environment, secrets: { HF_TOKEN: '' }, ...request };
  return templateFromWebhookJob(
    {
      ...webhookJob,
      environment,
      timeoutSeconds: req.timeoutSeconds ?? null,
      ...(req.labels ? { labels: req.labels } : {}),
    },
    req,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-01T12:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('JobRunner stages', () => {
  it('starts a schema-valid job with WEBHOOK_PAYLOAD and secret names only, then SCHEDULING -> RUNNING -> COMPLETED', () => {
    const { r, stored, stages } = runner();
    const job = r.start(template(), payload, owner);
    expect(Job.safeParse(job).success).toBe(true);
    expect(job.environment).toEqual({ LOG_LEVEL: 'info', WEBHOOK_PAYLOAD: payload });
    expect(job.secrets).toEqual({ HF_TOKEN: null });
    expect(job).toMatchObject({
      timeout: 60,
      retry: 0,
      owner: { type: 'user' },
      status: { stage: 'SCHEDULING', failureCount: 0 },
    });
    vi.advanceTimersByTime(1_000);
    expect(stored.get(job.id)!.status.stage).toBe('RUNNING');
    expect(stored.get(job.id)!.startedAt).toBe('2026-11-01T12:00:01.000Z');
    vi.advanceTimersByTime(3_000);
    const done = stored.get(job.id)!;
    expect(stages(job.id)).toEqual(['SCHEDULING', 'RUNNING', 'COMPLETED']);
    expect(Job.safeParse(done).success).toBe(true);
    expect(done.finishedAt).toBe('2026-11-01T12:00:04.000Z');
    expect(done.durations).toEqual({ schedulingSecs: 1, runningSecs: 3, totalSecs: 4 });
  });

  it('retries a failed run up to attempts - 1 times, counting retry and failureCount, then ends in ERROR', () => {
    const { r, history, stored, stages } = runner();
    const job = r.start(template({ MOCK_JOB_OUTCOME: 'ERROR' }, { attempts: 3 }), payload, owner);
    vi.advanceTimersByTime(60_000);
    expect(stages(job.id)).toEqual([
      'SCHEDULING',
      'RUNNING',
      'SCHEDULING',
      'RUNNING',
      'SCHEDULING',
      'RUNNING',
      'ERROR',
    ]);
    const retries = history
      .filter((j) => j.id === job.id && j.status.stage === 'SCHEDULING')
      .map((j) => [j.retry, j.status.failureCount, j.status.message]);
    expect(retries).toEqual([
      [0, 0, null],
      [1, 1, 'Attempt 1 of 3 failed (Process exited with code 1); retrying'],
      [2, 2, 'Attempt 2 of 3 failed (Process exited with code 1); retrying'],
    ]);
    expect(stored.get(job.id)).toMatchObject({
      retry: 2,
      status: {
        stage: 'ERROR',
        failureCount: 3,
        message: 'Process exited with code 1 (attempt 3 of 3, no retries left)',
      },
    });
  });

  it('completes on a later attempt when only the first ones fail', () => {
    const { r, stored, stages } = runner();
    const job = r.start(template({ MOCK_JOB_FAIL_ATTEMPTS: '1' }, { attempts: 2 }), payload, owner);
    vi.advanceTimersByTime(60_000);
    expect(stages(job.id)).toEqual(['SCHEDULING', 'RUNNING', 'SCHEDULING', 'RUNNING', 'COMPLETED']);
    expect(stored.get(job.id)).toMatchObject({
      retry: 1,
      status: { stage: 'COMPLETED', failureCount: 1, message: null },
    });
    // Running time counts from the first start, retries included.
    expect(stored.get(job.id)!.durations).toEqual({ schedulingSecs: 1, runningSecs: 7, totalSecs: 8 });
  });

  it('does not retry with the default single attempt', () => {
    const { r, stored, stages } = runner();
    const job = r.start(template({ MOCK_JOB_OUTCOME: 'ERROR' }), payload, owner);
    vi.advanceTimersByTime(60_000);
    expect(stages(job.id)).toEqual(['SCHEDULING', 'RUNNING', 'ERROR']);
    expect(stored.get(job.id)).toMatchObject({
      retry: 0,
      status: { failureCount: 1, message: 'Process exited with code 1' },
    });
  });

  it('takes as long as MOCK_JOB_RUN_SECONDS / MOCK_JOB_SCHEDULE_SECONDS ask', () => {
    const { r, stored } = runner();
    const job = r.start(
      template({ MOCK_JOB_SCHEDULE_SECONDS: '5', MOCK_JOB_RUN_SECONDS: '50' }, { timeoutSeconds: null }),
      payload,
      owner,
    );
    vi.advanceTimersByTime(4_999);
    expect(stored.get(job.id)!.status.stage).toBe('SCHEDULING');
    vi.advanceTimersByTime(49_999);
    expect(stored.get(job.id)!.status.stage).toBe('RUNNING');
    vi.advanceTimersByTime(2);
    expect(stored.get(job.id)!.status.stage).toBe('COMPLETED');
  });

  it('ends a run that outlasts timeoutSeconds as a failed attempt', () => {
    const { r, stored } = runner();
    const job = r.start(template({ MOCK_JOB_RUN_SECONDS: '100' }, { timeoutSeconds: 2, attempts: 2 }), payload, owner);
    vi.advanceTimersByTime(1_000 + 2_000);
    expect(stored.get(job.id)!.status).toMatchObject({
      stage: 'SCHEDULING',
      failureCount: 1,
      message: 'Attempt 1 of 2 failed (Timed out after 2 s); retrying',
    });
    vi.advanceTimersByTime(3_000);
    expect(stored.get(job.id)!.status).toMatchObject({
      stage: 'ERROR',
      failureCount: 2,
      message: 'Timed out after 2 s (attempt 2 of 2, no retries left)',
    });
  });

  it('ends in ERROR naming the variable when a switch is not understood', () => {
    const { r, stored, stages } = runner();
    const job = r.start(template({ MOCK_JOB_RUN_SECONDS: 'soon' }), payload, owner);
    vi.advanceTimersByTime(10_000);
    expect(stages(job.id)).toEqual(['SCHEDULING', 'ERROR']);
    expect(stored.get(job.id)!.status.message).toMatch(/^MOCK_JOB_RUN_SECONDS must be a number of seconds/);
  });
});

describe('JobRunner cancel', () => {
  it('cancels a scheduled job: CANCELED with who, finishedAt, and nothing runs afterwards', () => {
    const { r, stored, stages } = runner();
    const job = r.start(template(), payload, owner);
    vi.advanceTimersByTime(500);
    const canceled = r.cancel(job.id, 'alice')!;
    expect(canceled.status).toMatchObject({ stage: 'CANCELED', message: 'Canceled by alice' });
    expect(canceled.finishedAt).toBe('2026-11-01T12:00:00.500Z');
    expect(canceled.startedAt).toBeUndefined();
    expect(canceled.durations).toEqual({ schedulingSecs: 0.5, totalSecs: 0.5 });
    vi.advanceTimersByTime(60_000);
    expect(stages(job.id)).toEqual(['SCHEDULING', 'CANCELED']);
    expect(stored.get(job.id)).toEqual(canceled);
  });

  it('cancels a running job and ends its log', () => {
    const { r, stored } = runner();
    const job = r.start(template({ MOCK_JOB_RUN_SECONDS: '600' }), payload, owner);
    vi.advanceTimersByTime(2_500);
    const seen: string[] = [];
    let ended = false;
    r.logs.follow(job.id, { line: (e) => seen.push(e.data), end: () => (ended = true) });
    r.cancel(job.id, 'bob');
    expect(stored.get(job.id)!.durations).toEqual({ schedulingSecs: 1, runningSecs: 1.5, totalSecs: 2.5 });
    expect(seen).toEqual(['Canceled by bob']);
    expect(ended).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(r.logs.read(job.id)!.at(-1)!.data).toBe('Canceled by bob');
  });

  it('leaves finished jobs as they are and answers undefined for unknown ids', () => {
    const { r, stored } = runner();
    const job = r.start(template(), payload, owner);
    vi.advanceTimersByTime(10_000);
    const before = stored.get(job.id);
    expect(r.cancel(job.id, 'alice')).toEqual(before);
    expect(stored.get(job.id)!.status.stage).toBe('COMPLETED');
    expect(r.cancel('f'.repeat(24), 'alice')).toBeUndefined();
  });

  it('leaves a job alone once something else moved it on', () => {
    const { r, stored, stages } = runner();
    const job = r.start(template(), payload, owner);
    stored.set(job.id, { ...job, status: { stage: 'DELETED', message: null } });
    vi.advanceTimersByTime(10_000);
    expect(stages(job.id)).toEqual(['SCHEDULING']);
  });

  it('close() stops pending stage changes and ends log followers', () => {
    const { r, stages } = runner();
    const job = r.start(template(), payload, owner);
    let ended = false;
    r.logs.follow(job.id, { line: () => undefined, end: () => (ended = true) });
    r.close();
    vi.advanceTimersByTime(10_000);
    expect(stages(job.id)).toEqual(['SCHEDULING']);
    expect(ended).toBe(true);
  });
});

describe('JobRunner job fields', () => {
  it('exposes each port in order, gives an SSH URL, copies labels as key=value tags and defaults repo volumes', () => {
    const { r } = runner();
    const job = r.start(
      template(
        {},
        {
          arch: 'arm64',
          labels: { team: 'ml', stage: '' },
          expose: { ports: [8080, 22, 7860] },
          ssh: { enabled: true },
          volumes: [
            { type: 'model', source: 'acme/m', mountPath: '/m' },
            { type: 'dataset', source: 'acme/d', mountPath: '/d', revision: 'v1', readOnly: false, path: 'sub' },
            { type: 'bucket', source: 'alice/b', mountPath: '/b' },
            { type: 'bucket', source: 'alice/r', mountPath: '/r', readOnly: true },
          ],
        },
      ),
      payload,
      owner,
    );
    expect(job.status.exposeUrls).toEqual([8080, 22, 7860].map((p) => exposeUrl(job.id, p)));
    expect(job.status.exposeUrls![0]).toBe(`https://${job.id}--8080.jobs.mock-hub.test`);
    expect(job.status.sshUrl).toBe(sshUrl(job.id));
    expect(job.arch).toBe('arm64');
    expect(job.tags).toEqual(['team=ml', 'stage=']);
    expect(job.volumes).toEqual([
      { type: 'model', source: 'acme/m', mountPath: '/m', revision: 'main', readOnly: true },
      { type: 'dataset', source: 'acme/d', mountPath: '/d', revision: 'v1', readOnly: true, path: 'sub' },
      { type: 'bucket', source: 'alice/b', mountPath: '/b', readOnly: false },
      { type: 'bucket', source: 'alice/r', mountPath: '/r', readOnly: true },
    ]);
  });

  it('has no exposeUrls, sshUrl or tags when the request asks for none', () => {
    const { r } = runner();
    const job = r.start(template(), payload, owner);
    expect(job.status.exposeUrls).toBeUndefined();
    expect(job.status.sshUrl).toBeUndefined();
    expect(job.tags).toBeUndefined();
    expect(job.volumes).toBeUndefined();
  });

  it('logs the start banner, the command, the event, progress and the exit, live to followers', () => {
    const { r } = runner();
    const job = r.start(template(), payload, owner);
    const live: string[] = [];
    let ended = false;
    r.logs.follow(job.id, { line: (e) => live.push(e.data), end: () => (ended = true) });
    vi.advanceTimersByTime(10_000);
    const lines = r.logs.read(job.id)!.map((e) => e.data);
    expect(lines).toEqual([
      '===== Job started at 2026-11-01T12:00:01.000Z =====',
      'Running python:3.12 $ python x.py',
      'WEBHOOK_PAYLOAD: repo.content.update on model acme/m',
      'still running (1 s)',
      'still running (2 s)',
      'Process exited with code 0',
    ]);
    expect(live).toEqual(lines);
    expect(ended).toBe(true);
  });

  it('copies a source job (jobSourceId) without its old payload or secret values', () => {
    const source = Job.parse({
      id: 's',
      createdAt: '2026-01-01T00:00:00Z',
      owner,
      createdBy: owner,
      flavor: 'a10g-small',
      dockerImage: 'img',
      command: ['run'],
      arch: 'arm64',
      tags: ['team=ml'],
      environment: { A: 'b', WEBHOOK_PAYLOAD: 'old' },
      secrets: { TOKEN: null },
      status: {
        stage: 'COMPLETED',
        message: null,
        exposeUrls: [exposeUrl('s', 8000), exposeUrl('s', 9000)],
        sshUrl: sshUrl('s'),
      },
    });
    expect(templateFromJob(source)).toMatchObject({
      dockerImage: 'img',
      command: ['run'],
      arch: 'arm64',
      flavor: 'a10g-small',
      environment: { A: 'b' },
      secretNames: ['TOKEN'],
      tags: ['team=ml'],
      exposePorts: [8000, 9000],
      ssh: true,
      attempts: 1,
    });
  });
});
