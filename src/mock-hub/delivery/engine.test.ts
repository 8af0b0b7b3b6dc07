import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../hub/schemas/job.ts';
import type { Listening } from '../../webhooks/listen.ts';
import { webhookPayloadSchema, type ReceivedWebhookPayload } from '../../webhooks/payload-schema.ts';
import { createWebhooksServer } from '../../webhooks/server.ts';
import { createDeliveryEngine, type DeliveryEngine } from './engine.ts';
import { fakeHost, hook } from './fake-host.ts';

const quiet = { info() {}, warn() {}, error() {} };

describe('delivery engine (fake store, real receiver)', () => {
  let receiver: Listening;
  const got: { route: string; payload: ReceivedWebhookPayload; secret: string | null }[] = [];
  let failNext = 0;
  let active = 0;
  let peak = 0;
  let engine: DeliveryEngine | undefined;

  beforeAll(async () => {
    const server = createWebhooksServer({ logger: quiet });
    server.add(
      (payload, req) => void got.push({ route: 'a', payload, secret: req.headers.get('x-webhook-secret') }),
      'a',
    );
    server.add(
      (payload, req) => void got.push({ route: 'b', payload, secret: req.headers.get('x-webhook-secret') }),
      'b',
    );
    server.add(() => {
      if (failNext > 0) {
        failNext -= 1;
        throw new Error('down');
      }
      return 'ok';
    }, 'flaky');
    server.add(() => new Promise((r) => setTimeout(() => r('late'), 1500)), 'hang');
    server.add(async () => {
      active += 1;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 60));
      active -= 1;
      return 'ok';
    }, 'gate');
    receiver = await server.listen(0);
  });
  afterAll(() => receiver.close());
  afterEach(() => {
    got.length = 0;
    engine?.close();
  });

  it('delivers to matching URL webhooks only, with their secret, and logs each delivery', async () => {
    const host = fakeHost([
      hook('1', { url: `${receiver.url}/webhooks/a`, watched: [{ type: 'org', name: 'acme' }], secret: 's3' }),
      hook('2', { url: `${receiver.url}/webhooks/b`, watched: [{ type: 'model', name: 'acme/other' }] }),
      hook('3', {
        url: `${receiver.url}/webhooks/b`,
        watched: [{ type: 'org', name: 'acme' }],
        domains: ['discussion'],
      }),
    ]);
    engine = createDeliveryEngine(host);
    const result = engine.emit({
      repo: { type: 'model', name: 'acme/vision' },
      scope: 'repo.content',
      action: 'update',
    });
    expect(result.reached.map((r) => r.webhookId)).toEqual(['1'.padStart(24, '0')]);
    await engine.idle();
    expect(got).toHaveLength(1);
    expect(got[0]!.secret).toBe('s3');
    expect(webhookPayloadSchema.parse(got[0]!.payload).repo.name).toBe('acme/vision');
    const logs = engine.logs('1'.padStart(24, '0'));
    expect(logs).toEqual([
      expect.objectContaining({
        id: result.reached[0]!.logId,
        status: 200,
        error: null,
        target: `${receiver.url}/webhooks/a`,
      }),
    ]);
    expect(host.hooks[0]!.webhook.lastTriggerAt).toBeDefined();
    expect(host.hooks[1]!.webhook.lastTriggerAt).toBeUndefined();
  });

  it('delivers events of a private repo only to webhooks whose owner can see it', async () => {
    const bobs = {
      ...hook('2', { url: `${receiver.url}/webhooks/b`, watched: [{ type: 'user', name: 'alice' }] }),
      owner: 'bob',
    };
    const host = fakeHost([
      hook('1', { url: `${receiver.url}/webhooks/a`, watched: [{ type: 'user', name: 'alice' }] }),
      bobs,
    ]);
    engine = createDeliveryEngine(host);
    expect(
      engine
        .emit({ repo: { type: 'model', name: 'alice/m-private' }, scope: 'repo', action: 'update' })
        .reached.map((r) => r.webhookId),
    ).toEqual(['1'.padStart(24, '0')]);
    expect(
      engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'update' }).reached,
    ).toHaveLength(2);
    await engine.idle();
    expect(
      got.filter((g) => g.payload.repo.name === 'alice/m-private').map((g) => [g.route, g.payload.repo.private]),
    ).toEqual([['a', true]]);
  });

  it('successive pushes chain oldSha -> newSha', async () => {
    engine = createDeliveryEngine(
      fakeHost([hook('1', { url: `${receiver.url}/webhooks/a`, watched: [{ type: 'user', name: 'alice' }] })]),
    );
    engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo.content', action: 'update' });
    await engine.idle();
    engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo.content', action: 'update' });
    await engine.idle();
    const [first, second] = got.map((g) => g.payload.updatedRefs![0]!);
    expect(second!.oldSha).toBe(first!.newSha);
    expect(second!.newSha).not.toBe(first!.newSha);
  });

  it('suspends after 5 consecutive failures, then replay reports the receiver status', async () => {
    const host = fakeHost([
      hook('9', { url: `${receiver.url}/webhooks/flaky`, watched: [{ type: 'user', name: 'alice' }] }),
    ]);
    engine = createDeliveryEngine(host);
    const id = '9'.padStart(24, '0');
    failNext = 5;
    for (let i = 0; i < 5; i++) {
      expect(
        engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'update' }).reached,
      ).toHaveLength(1);
      await engine.idle();
      expect(host.hooks[0]!.webhook.disabled).toBe(i < 4 ? false : 'suspended-after-failure');
    }
    expect(engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'update' }).reached).toEqual(
      [],
    );
    const logs = engine.logs(id);
    expect(logs.map((l) => l.status)).toEqual([500, 500, 500, 500, 500]);
    expect(await engine.replay(id, logs[0]!.id)).toEqual({ status: 200 });
    expect(engine.logs(id)[0]).toMatchObject({ replayOf: logs[0]!.id, status: 200 });
    expect(await engine.replay(id, 'nope')).toBeUndefined();
  });

  it('counts refused connections and timeouts as failures without a status', async () => {
    const dead = await createWebhooksServer({ logger: quiet }).listen(0);
    await dead.close();
    const host = fakeHost([hook('5', { url: `${dead.url}/webhooks/x`, watched: [{ type: 'user', name: 'alice' }] })]);
    engine = createDeliveryEngine(host, { timeoutMs: 200 });
    engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'update' });
    await engine.idle();
    const [entry] = engine.logs('5'.padStart(24, '0'));
    expect(entry).toMatchObject({ status: null, error: expect.stringMatching(/ECONNREFUSED|fetch failed/) });
    expect(await engine.replay('5'.padStart(24, '0'), entry!.id)).toEqual({ status: 0 });

    const slow = fakeHost([
      hook('4', { url: `${receiver.url}/webhooks/hang`, watched: [{ type: 'user', name: 'alice' }] }),
    ]);
    engine = createDeliveryEngine(slow, { timeoutMs: 200 });
    engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'update' });
    await engine.idle();
    // No status: the hub gave up before the receiver's (late) 200.
    expect(engine.logs('4'.padStart(24, '0'))[0]).toMatchObject({ status: null, error: 'timeout after 200 ms' });
  });

  it('keeps at most concurrencyPerWebhook deliveries of one webhook in flight', async () => {
    const host = fakeHost([
      hook('3', { url: `${receiver.url}/webhooks/gate`, watched: [{ type: 'user', name: 'alice' }] }),
    ]);
    engine = createDeliveryEngine(host, { concurrencyPerWebhook: 2 });
    for (let i = 0; i < 6; i++)
      engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'update' });
    await engine.idle();
    expect(peak).toBe(2);
    expect(engine.logs('3'.padStart(24, '0')).map((l) => l.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('starts a schema-valid job for a job webhook and for a jobSourceId webhook', async () => {
    const source = Job.parse({
      id: 'src1',
      createdAt: '2026-01-01T00:00:00Z',
      owner: { id: 'o', name: 'alice' },
      createdBy: { id: 'o', name: 'alice' },
      flavor: 'cpu-basic',
      dockerImage: 'img',
      environment: {},
      status: { stage: 'COMPLETED', message: null },
    });
    const host = fakeHost(
      [
        hook('7', {
          job: {
            dockerImage: 'python:3.12',
            environment: {},
            flavor: 'cpu-basic',
            timeoutSeconds: null,
            secrets: ['HF_TOKEN'],
          },
          watched: [{ type: 'user', name: 'alice' }],
        }),
        hook('8', { jobSourceId: 'src1', watched: [{ type: 'user', name: 'alice' }] }),
        hook('6', { jobSourceId: 'missing', watched: [{ type: 'user', name: 'alice' }] }),
      ],
      [source],
    );
    engine = createDeliveryEngine(host, { jobTiming: { schedulingMs: 10, runningMs: 10 } });
    engine.emit({ repo: { type: 'model', name: 'alice/m' }, scope: 'repo', action: 'create' });
    await engine.idle();
    const started = [...host.jobs.values()].filter((j) => j.id !== 'src1');
    expect(started).toHaveLength(2);
    for (const j of started) {
      expect(Job.safeParse(j).success).toBe(true);
      expect(webhookPayloadSchema.parse(JSON.parse(j.environment.WEBHOOK_PAYLOAD!)).event).toEqual({
        action: 'create',
        scope: 'repo',
      });
    }
    expect(started.find((j) => j.dockerImage === 'python:3.12')!.secrets).toEqual({ HF_TOKEN: null });
    expect(engine.logs('6'.padStart(24, '0'))[0]).toMatchObject({
      status: null,
      error: expect.stringMatching(/not found/),
    });
    expect(engine.logs('7'.padStart(24, '0'))[0]).toMatchObject({
      status: 200,
      target: expect.stringMatching(/^job alice\//),
    });
    // The log entry names the job it started; a delivery that started none has no jobId.
    const startedId = started.find((j) => j.dockerImage === 'python:3.12')!.id;
    expect(engine.logs('7'.padStart(24, '0'))[0]!.jobId).toBe(startedId);
    expect(engine.logs('6'.padStart(24, '0'))[0]!.jobId).toBeUndefined();

    // Replaying a job delivery starts another job with the same payload.
    const [jobLog] = engine.logs('7'.padStart(24, '0'));
    expect(await engine.replay('7'.padStart(24, '0'), jobLog!.id)).toEqual({ status: 200 });
    const after = [...host.jobs.values()].filter((j) => j.id !== 'src1');
    expect(after).toHaveLength(3);
    const payloads = after.filter((j) => j.dockerImage === 'python:3.12').map((j) => j.environment.WEBHOOK_PAYLOAD);
    expect(payloads).toHaveLength(2);
    expect(payloads[0]).toBe(payloads[1]);
  });
});
