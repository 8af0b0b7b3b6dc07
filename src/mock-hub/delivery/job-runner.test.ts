import { describe, expect, it } from 'vitest';
import { Job } from '../../hub/schemas/job.ts';
import { JobRunner, templateFromJob, templateFromWebhookJob } from './job-runner.ts';

const owner = { id: '1'.repeat(24), name: 'alice' };
const webhookJob = { dockerImage: 'python:3.12', command: ['python', 'x.py'], environment: { LOG_LEVEL: 'info' }, flavor: 'cpu-basic' as const, timeoutSeconds: 60, secrets: ['HF_TOKEN'] };

function runnerWithHistory() {
  const history: Job[] = [];
  const runner = new JobRunner((j) => history.push(j), { schedulingMs: 20, runningMs: 20 });
  return { history, runner };
}

const until = async (cond: () => boolean, ms = 2000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('JobRunner', () => {
  it('starts a schema-valid job with WEBHOOK_PAYLOAD and secret names only, then SCHEDULING -> RUNNING -> COMPLETED', async () => {
    const { history, runner } = runnerWithHistory();
    const job = runner.start(templateFromWebhookJob(webhookJob), '{"a":1}', owner);
    expect(Job.safeParse(job).success).toBe(true);
    expect(job.environment).toEqual({ LOG_LEVEL: 'info', WEBHOOK_PAYLOAD: '{"a":1}' });
    expect(job.secrets).toEqual({ HF_TOKEN: null });
    expect(job.timeout).toBe(60);
    await until(() => history.length === 3);
    expect(history.map((j) => j.status.stage)).toEqual(['SCHEDULING', 'RUNNING', 'COMPLETED']);
    const done = history[2]!;
    expect(Job.safeParse(done).success).toBe(true);
    expect(done.startedAt).toBeDefined();
    expect(done.finishedAt).toBeDefined();
    expect(done.durations!.totalSecs).toBeGreaterThan(0);
    runner.close();
  });

  it('ends in ERROR when the job environment asks for it', async () => {
    const { history, runner } = runnerWithHistory();
    runner.start(templateFromWebhookJob({ ...webhookJob, environment: { MOCK_JOB_OUTCOME: 'ERROR' } }), '{}', owner);
    await until(() => history.length === 3);
    expect(history[2]!.status).toMatchObject({ stage: 'ERROR', message: expect.any(String) });
  });

  it('leaves a job alone once something else moved it on (cancelled)', async () => {
    const stored = new Map<string, Job>();
    const runner = new JobRunner((j) => void stored.set(j.id, j), { schedulingMs: 20, runningMs: 20 }, () => new Date(), (id) => stored.get(id));
    const job = runner.start(templateFromWebhookJob(webhookJob), '{}', owner);
    stored.set(job.id, { ...job, status: { stage: 'CANCELED', message: 'cancelled by user' } });
    await new Promise((r) => setTimeout(r, 80));
    expect(stored.get(job.id)!.status.stage).toBe('CANCELED');
  });

  it('close() stops pending stage changes', async () => {
    const { history, runner } = runnerWithHistory();
    runner.start(templateFromWebhookJob(webhookJob), '{}', owner);
    runner.close();
    await new Promise((r) => setTimeout(r, 80));
    expect(history.map((j) => j.status.stage)).toEqual(['SCHEDULING']);
  });

  it('copies a source job but not its old payload or secret values', () => {
    const source = Job.parse({
      id: 's', createdAt: '2026-01-01T00:00:00Z', owner, createdBy: owner, flavor: 'a10g-small', dockerImage: 'img', command: ['run'], arch: 'arm64',
      environment: { A: 'b', WEBHOOK_PAYLOAD: 'old' }, secrets: { TOKEN: null }, status: { stage: 'COMPLETED', message: null },
    });
    const t = templateFromJob(source);
    expect(t).toMatchObject({ dockerImage: 'img', command: ['run'], arch: 'arm64', flavor: 'a10g-small', environment: { A: 'b' }, secretNames: ['TOKEN'] });
  });
});
