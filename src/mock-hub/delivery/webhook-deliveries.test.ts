import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../hub/schemas/job.ts';
import { WebhookEnvelope, WebhookList } from '../../hub/schemas/webhook.ts';
import { ReplayResult } from '../../hub/schemas/webhook.ts';
import { WebhookLogList, type WebhookLogEntry } from '../../hub/schemas/webhook-log.ts';
import { webhookPayloadSchema, type ReceivedWebhookPayload } from '../../webhooks/payload-schema.ts';
import { TOKENS, findUser } from '../seed/users.ts';
import { MockEventResult } from './event-schema.ts';
import { eventually, startLoopback, type Loopback } from './loopback-harness.ts';

const RECEIVER_SECRET = 'receiver-secret';
/** How long the slow receiver takes; everything the test checks meanwhile must finish well within it. */
const SLOW_MS = 4_000;

describe('webhook delivery: mock hub and receiving server on loopback', () => {
  let lb: Loopback;
  const received: { route: string; payload: ReceivedWebhookPayload; secret: string | null }[] = [];
  let failing = true;

  beforeAll(async () => {
    lb = await startLoopback({
      receiverSecret: RECEIVER_SECRET,
      deliveries: { jobTiming: { schedulingMs: 50, runningMs: 100 } },
    });
    for (const route of ['org-hook', 'repo-hook', 'other-repo', 'discussion-hook', 'bob-hook']) {
      lb.receiver.add(
        (payload, req) => void received.push({ route, payload, secret: req.headers.get('x-webhook-secret') }),
        route,
      );
    }
    lb.receiver.add(() => {
      if (failing) throw new Error('receiver is down');
      return { ok: true };
    }, 'flaky');
    lb.receiver.add(() => new Promise((r) => setTimeout(() => r('slow'), SLOW_MS)), 'slow');
  });
  afterAll(() => lb.close());
  afterEach(async () => {
    // Each test starts with no webhooks, so a broad watch from one test cannot match another's events.
    await lb.engine.idle();
    for (const token of [TOKENS.aliceWrite, TOKENS.bobWrite]) {
      for (const w of WebhookList.parse(await (await lb.api('/api/settings/webhooks', { token })).json())) {
        await lb.api(`/api/settings/webhooks/${w.id}`, { method: 'DELETE', token });
      }
    }
    received.length = 0;
  });

  async function createHook(body: object, token?: string): Promise<string> {
    const res = await lb.api('/api/settings/webhooks', { body, token });
    expect(res.status).toBe(200);
    return WebhookEnvelope.parse(await res.json()).webhook.id;
  }
  const urlOf = (route: string) => `${lb.receiverUrl}/webhooks/${route}`;
  async function emit(event: object, token?: string) {
    const res = await lb.api('/api/_mock/events', { body: event, token });
    expect(res.status).toBe(200);
    return MockEventResult.parse(await res.json());
  }
  async function logsOf(id: string): Promise<WebhookLogEntry[]> {
    const res = await lb.api(`/api/settings/webhooks/${id}/logs`);
    expect(res.status).toBe(200);
    return WebhookLogList.parse(await res.json());
  }
  const logsWhen = (id: string, n: number, timeoutMs?: number) =>
    eventually(async () => ((await logsOf(id)).length >= n ? logsOf(id) : undefined), timeoutMs);
  async function webhook(id: string) {
    return WebhookEnvelope.parse(await (await lb.api(`/api/settings/webhooks/${id}`)).json()).webhook;
  }

  it('delivers to matching webhooks only, with the secret header, and the receiver answers 401/403/200', async () => {
    const orgHook = await createHook({
      watched: [{ type: 'org', name: 'acme' }],
      domains: ['repo'],
      url: urlOf('org-hook'),
      secret: RECEIVER_SECRET,
    });
    const repoNoSecret = await createHook({
      watched: [{ type: 'model', name: 'acme/vision' }],
      domains: ['repo', 'discussion'],
      url: urlOf('repo-hook'),
    });
    const repoWrongSecret = await createHook({
      watched: [{ type: 'model', name: 'acme/vision' }],
      domains: ['repo'],
      url: urlOf('repo-hook'),
      secret: 'guess',
    });
    const otherRepo = await createHook({
      watched: [{ type: 'model', name: 'acme/other' }],
      domains: ['repo'],
      url: urlOf('other-repo'),
      secret: RECEIVER_SECRET,
    });
    const discussionOnly = await createHook({
      watched: [{ type: 'org', name: 'acme' }],
      domains: ['discussion'],
      url: urlOf('discussion-hook'),
      secret: RECEIVER_SECRET,
    });
    const datasetSameName = await createHook({
      watched: [{ type: 'dataset', name: 'acme/vision' }],
      domains: ['repo'],
      url: urlOf('other-repo'),
      secret: RECEIVER_SECRET,
    });
    const bobHook = await createHook(
      { watched: [{ type: 'org', name: 'acme' }], domains: ['repo'], url: urlOf('bob-hook'), secret: RECEIVER_SECRET },
      TOKENS.bobWrite,
    );
    const disabled = await createHook({
      watched: [{ type: 'org', name: 'acme' }],
      domains: ['repo'],
      url: urlOf('org-hook'),
      secret: RECEIVER_SECRET,
    });
    expect((await lb.api(`/api/settings/webhooks/${disabled}/disable`, { method: 'POST' })).status).toBe(200);

    const before = Date.now();
    const result = await emit({
      repo: { type: 'model', name: 'acme/vision' },
      scope: 'repo.content',
      action: 'update',
    });
    expect(result.reached.map((r) => r.webhookId).sort()).toEqual(
      [orgHook, repoNoSecret, repoWrongSecret, bobHook].sort(),
    );
    expect(result.reached.find((r) => r.webhookId === orgHook)!.target).toBe(urlOf('org-hook'));

    const [orgLog] = await logsWhen(orgHook, 1);
    const [noSecretLog] = await logsWhen(repoNoSecret, 1);
    const [wrongLog] = await logsWhen(repoWrongSecret, 1);
    expect(orgLog).toMatchObject({
      id: result.reached.find((r) => r.webhookId === orgHook)!.logId,
      status: 200,
      error: null,
      target: urlOf('org-hook'),
      event: { action: 'update', scope: 'repo.content' },
    });
    expect(noSecretLog).toMatchObject({ status: 401, error: 'HTTP 401' });
    expect(wrongLog).toMatchObject({ status: 403, error: 'HTTP 403' });
    expect(orgLog!.durationMs).toBeGreaterThanOrEqual(0);

    await eventually(async () => received.length >= 2);
    expect(received.map((r) => r.route).sort()).toEqual(['bob-hook', 'org-hook']);
    const atOrg = received.find((r) => r.route === 'org-hook')!;
    expect(atOrg.secret).toBe(RECEIVER_SECRET);
    const payload = webhookPayloadSchema.parse(atOrg.payload);
    expect(payload).toMatchObject({
      event: { action: 'update', scope: 'repo.content' },
      repo: { type: 'model', name: 'acme/vision', private: false },
      webhook: { id: orgHook, version: 3 },
    });
    expect(payload.updatedRefs).toHaveLength(1);

    for (const id of [otherRepo, discussionOnly, datasetSameName, disabled]) expect(await logsOf(id)).toEqual([]);

    const hook = await webhook(orgHook);
    expect(Date.parse(hook.lastTriggerAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await webhook(otherRepo)).lastTriggerAt).toBeUndefined();

    // bob's webhook delivered, but its log is bob's: alice sees 404.
    expect((await lb.api(`/api/settings/webhooks/${bobHook}/logs`)).status).toBe(404);
    expect((await lb.api(`/api/settings/webhooks/${bobHook}/logs`, { token: TOKENS.bobWrite })).status).toBe(200);
  });

  it('routes discussion events to discussion domains, with discussion fields in the payload', async () => {
    received.length = 0;
    const hook = await createHook({
      watched: [{ type: 'user', name: 'alice' }],
      domains: ['discussion'],
      url: urlOf('discussion-hook'),
      secret: RECEIVER_SECRET,
    });
    const repoOnly = await createHook({
      watched: [{ type: 'user', name: 'alice' }],
      domains: ['repo'],
      url: urlOf('repo-hook'),
      secret: RECEIVER_SECRET,
    });
    const result = await emit(
      {
        repo: { type: 'dataset', name: 'alice/data' },
        scope: 'discussion.comment',
        action: 'create',
        discussion: { num: 4, title: 'Typo', comment: { content: 'Fixed?' } },
      },
      TOKENS.bobWrite,
    );
    expect(result.reached.map((r) => r.webhookId)).toEqual([hook]);
    await logsWhen(hook, 1);
    // What the mock sends is the strict payload, with every field typed.
    const payload = webhookPayloadSchema.parse(received.find((r) => r.route === 'discussion-hook')!.payload);
    expect(payload.discussion).toMatchObject({ num: 4, title: 'Typo', status: 'open', isPullRequest: false });
    expect(payload.comment).toMatchObject({ content: 'Fixed?' });
    // The caller (bob) is the author; the owner is the repo's namespace (alice).
    expect(payload.comment!.author.id).toBe(findUser('bob')!.id);
    expect(payload.discussion!.author.id).toBe(findUser('bob')!.id);
    expect(payload.repo.owner.id).toBe(findUser('alice')!.id);
    expect(payload.repo.url.web).toBe(`${lb.hub.context.baseUrl}/datasets/alice/data`);
    expect(await logsOf(repoOnly)).toEqual([]);
  });

  it('replay re-sends the logged payload and returns the receiver status; the replay is logged', async () => {
    received.length = 0;
    const id = await createHook({
      watched: [{ type: 'model', name: 'alice/replayed' }],
      domains: ['repo'],
      url: urlOf('repo-hook'),
      secret: 'wrong',
    });
    await emit({ repo: { type: 'model', name: 'alice/replayed' }, scope: 'repo', action: 'create' });
    const [first] = await logsWhen(id, 1);
    expect(first!.status).toBe(403);

    const again = await lb.api(`/api/settings/webhooks/${id}/replay/${first!.id}`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(ReplayResult.parse(await again.json())).toEqual({ status: 403 });

    // Fix the secret on the hub: the same logged payload now gets through.
    const update = await lb.api(`/api/settings/webhooks/${id}`, {
      body: {
        watched: [{ type: 'model', name: 'alice/replayed' }],
        domains: ['repo'],
        url: urlOf('repo-hook'),
        secret: RECEIVER_SECRET,
      },
    });
    expect(update.status).toBe(200);
    const fixed = await lb.api(`/api/settings/webhooks/${id}/replay/${first!.id}`, { method: 'POST' });
    expect(await fixed.json()).toEqual({ status: 200 });
    expect(received).toHaveLength(1);
    expect(received[0]!.payload.event).toEqual({ action: 'create', scope: 'repo' });

    const logs = await logsOf(id);
    expect(logs.map((l) => [l.status, l.replayOf ?? null])).toEqual([
      [200, first!.id],
      [403, first!.id],
      [403, null],
    ]);
    expect((await lb.api(`/api/settings/webhooks/${id}/replay/${'0'.repeat(24)}`, { method: 'POST' })).status).toBe(
      404,
    );

    // An entry without its request (logged by an older mock hub) has no payload to replay.
    const persisted = { ...first!, id: 'f'.repeat(24), createdAt: '2026-01-01T00:00:00Z' };
    lb.hub.store.transaction((s) => void s.webhookLogs[id]!.push(persisted));
    const gone = await lb.api(`/api/settings/webhooks/${id}/replay/${persisted.id}`, { method: 'POST' });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ error: expect.stringMatching(/not kept whole/) });
  });

  it('suspends a webhook after 5 consecutive failed deliveries; enable brings it back', async () => {
    failing = true;
    const id = await createHook({
      watched: [{ type: 'space', name: 'alice/flaky-space' }],
      domains: ['repo'],
      url: urlOf('flaky'),
      secret: RECEIVER_SECRET,
    });
    const event = { repo: { type: 'space', name: 'alice/flaky-space' }, scope: 'repo', action: 'update' };
    for (let i = 1; i <= 5; i++) {
      expect((await emit(event)).reached).toHaveLength(1);
      await logsWhen(id, i);
      expect((await webhook(id)).disabled).toBe(i < 5 ? false : 'suspended-after-failure');
    }
    expect((await logsOf(id)).every((l) => l.status === 500)).toBe(true);
    expect((await emit(event)).reached).toEqual([]);
    expect(
      WebhookList.parse(await (await lb.api('/api/settings/webhooks')).json()).find((w) => w.id === id)!.disabled,
    ).toBe('suspended-after-failure');

    failing = false;
    const enabled = await lb.api(`/api/settings/webhooks/${id}/enable`, { method: 'POST' });
    expect(WebhookEnvelope.parse(await enabled.json()).webhook.disabled).toBe(false);
    expect((await emit(event)).reached).toHaveLength(1);
    const [latest] = await logsWhen(id, 6);
    expect(latest!.status).toBe(200);

    // After enable the count starts again: 4 more failures do not suspend.
    failing = true;
    for (let i = 0; i < 4; i++) {
      await emit(event);
      await logsWhen(id, 7 + i);
    }
    expect((await webhook(id)).disabled).toBe(false);
  });

  it('counts a refused connection as a failure, logged without a status', async () => {
    const dead = 'http://127.0.0.1:9/webhooks/none';
    const id = await createHook({ watched: [{ type: 'model', name: 'alice/dead' }], domains: ['repo'], url: dead });
    await emit({ repo: { type: 'model', name: 'alice/dead' }, scope: 'repo', action: 'update' });
    const [entry] = await logsWhen(id, 1);
    expect(entry).toMatchObject({
      status: null,
      target: dead,
      error: expect.stringMatching(/ECONNREFUSED|fetch failed/),
    });
    expect(await (await lb.api(`/api/settings/webhooks/${id}/replay/${entry!.id}`, { method: 'POST' })).json()).toEqual(
      { status: 0 },
    );
  });

  it('a job webhook starts a schema-valid Job with WEBHOOK_PAYLOAD that runs to COMPLETED', async () => {
    const id = await createHook({
      watched: [{ type: 'model', name: 'alice/trained' }],
      domains: ['repo'],
      job: {
        dockerImage: 'python:3.12',
        command: ['python', 'train.py'],
        flavor: 't4-small',
        environment: { MODE: 'eval' },
        secrets: { HF_TOKEN: 'hf_secret_value' },
        arch: 'amd64',
      },
    });
    const result = await emit({
      repo: { type: 'model', name: 'alice/trained' },
      scope: 'repo.content',
      action: 'update',
    });
    expect(result.reached).toEqual([expect.objectContaining({ webhookId: id, target: 'job' })]);
    const [entry] = await logsWhen(id, 1);
    expect(entry).toMatchObject({ status: 200, target: expect.stringMatching(/^job alice\/[0-9a-f]{24}$/) });
    const jobId = entry!.target.split('/')[1]!;

    const job = Job.parse(await (await lb.api(`/api/jobs/alice/${jobId}`)).json());
    expect(job).toMatchObject({
      dockerImage: 'python:3.12',
      command: ['python', 'train.py'],
      flavor: 't4-small',
      arch: 'amd64',
      owner: { name: 'alice' },
    });
    expect(job.secrets).toEqual({ HF_TOKEN: null });
    expect(JSON.stringify(job)).not.toContain('hf_secret_value');
    const payload = webhookPayloadSchema.parse(JSON.parse(job.environment.WEBHOOK_PAYLOAD!));
    expect(payload).toMatchObject({
      event: { scope: 'repo.content' },
      repo: { name: 'alice/trained' },
      webhook: { id },
    });
    expect(job.environment.MODE).toBe('eval');

    const done = await eventually(async () => {
      const j = Job.parse(await (await lb.api(`/api/jobs/alice/${jobId}`)).json());
      return j.status.stage === 'COMPLETED' ? j : undefined;
    });
    expect(done.startedAt).toBeDefined();
    expect(done.finishedAt).toBeDefined();
  });

  it('a slow receiver blocks neither the request that caused the event nor other endpoints', async () => {
    const id = await createHook({
      watched: [{ type: 'model', name: 'alice/slow' }],
      domains: ['repo'],
      url: urlOf('slow'),
      secret: RECEIVER_SECRET,
    });
    const t0 = performance.now();
    const result = await emit({ repo: { type: 'model', name: 'alice/slow' }, scope: 'repo', action: 'update' });
    expect(result.reached).toHaveLength(1);
    const list = await lb.api('/api/settings/webhooks');
    expect(list.status).toBe(200);
    // Both answers came while the delivery was still waiting for the receiver.
    expect(await logsOf(id)).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(SLOW_MS);
    const [entry] = await logsWhen(id, 1, SLOW_MS + 5_000);
    expect(entry).toMatchObject({ status: 200 });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(SLOW_MS - 100);
  });

  it('documents the events and logs endpoints as mock extensions, replay as part of the spec', async () => {
    const doc = (await (await lb.api('/openapi.json')).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths['/api/_mock/events']!.post!['x-mock-extension']).toBe(true);
    expect(doc.paths['/api/settings/webhooks/{webhookId}/logs']!.get!['x-mock-extension']).toBe(true);
    expect(doc.paths['/api/settings/webhooks/{webhookId}/logs/{logId}']!.get!['x-mock-extension']).toBe(true);
    expect(doc.paths['/api/_mock/webhooks/{webhookId}/test']!.post!['x-mock-extension']).toBe(true);
    expect(doc.paths['/api/settings/webhooks/{webhookId}/replay/{logId}']!.post!['x-mock-extension']).toBeUndefined();
  });

  it('validates the event body', async () => {
    expect(
      (
        await lb.api('/api/_mock/events', {
          body: { repo: { type: 'model', name: 'a/b' }, scope: 'discussion', action: 'create' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await lb.api('/api/_mock/events', {
          body: { repo: { type: 'user', name: 'a/b' }, scope: 'repo', action: 'create' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await lb.api('/api/_mock/events', {
          body: { repo: { type: 'model', name: 'a/b' }, scope: 'repo', action: 'create' },
          token: 'nope',
        })
      ).status,
    ).toBe(401);
  });
});
