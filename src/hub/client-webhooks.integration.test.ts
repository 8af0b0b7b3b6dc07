import { describe, expect, it } from 'vitest';
import { HubRequestError } from './errors.ts';
import { TOKENS, apiError, eventually, withMockHub } from '../test-support/hub-harness.ts';
import type { WebhookInput } from './schemas/index.ts';
import { allReadable } from './tolerant-response.ts';

const hub = withMockHub();

const urlHook: WebhookInput = {
  watched: [{ type: 'user', name: 'alice' }],
  domains: ['repo'],
  url: 'https://receiver.example.test/hook',
  secret: 's3cret',
};

describe('webhooks', () => {
  it('seeds a URL webhook and a job webhook', async () => {
    const hooks = allReadable(await hub.as(TOKENS.aliceWrite).listWebhooks());
    expect(hooks.length).toBeGreaterThanOrEqual(2);
    expect(hooks.some((h) => h.url)).toBe(true);
    expect(hooks.some((h) => h.job)).toBe(true);
  });

  it('create, read, update, disable, enable, delete', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const created = await alice.createWebhook(urlHook);
    expect(created).toMatchObject({ url: urlHook.url, disabled: false, domains: ['repo'] });
    await expect(alice.getWebhook(created.id)).resolves.toEqual(created);
    expect(allReadable(await alice.listWebhooks()).map((h) => h.id)).toContain(created.id);

    const updated = await alice.updateWebhook(created.id, { ...urlHook, domains: ['repo', 'discussion'] });
    expect(updated.domains).toEqual(['repo', 'discussion']);

    expect((await alice.webhookAction(created.id, 'disable')).disabled).toBe(true);
    expect((await alice.getWebhook(created.id)).disabled).toBe(true);
    expect((await alice.webhookAction(created.id, 'enable')).disabled).toBe(false);

    await alice.deleteWebhook(created.id);
    expect((await apiError(alice.getWebhook(created.id))).status).toBe(404);
    expect((await apiError(alice.deleteWebhook(created.id))).status).toBe(404);
  });

  it('creates a job webhook with defaults filled in', async () => {
    const hook = await hub.as(TOKENS.aliceWrite).createWebhook({
      watched: [{ type: 'model', name: 'alice/some-model' }],
      domains: ['repo'],
      job: {
        dockerImage: 'python:3.12',
        command: ['python', '-c', 'print(1)'],
        flavor: 'cpu-basic',
        secrets: { HF_TOKEN: 'x' },
      },
    });
    expect(hook.job).toMatchObject({ flavor: 'cpu-basic', timeoutSeconds: null, environment: {} });
    expect(hook.job?.secrets).toEqual(['HF_TOKEN']);
  });

  it('hides other users webhooks as 404', async () => {
    const [aliceHook] = allReadable(await hub.as(TOKENS.aliceWrite).listWebhooks());
    const bob = hub.as(TOKENS.bobWrite);
    expect((await apiError(bob.getWebhook(aliceHook!.id))).status).toBe(404);
    expect((await apiError(bob.webhookAction(aliceHook!.id, 'disable'))).status).toBe(404);
  });

  it('refuses an invalid body before sending; the hub refuses it with the same field', async () => {
    const countBefore = allReadable(await hub.as(TOKENS.aliceWrite).listWebhooks()).length;
    const bad = {
      ...urlHook,
      url: undefined,
      job: { flavor: 'cpu-basic', dockerImage: 'x', timeoutSeconds: -1 },
    } as WebhookInput;
    const e = await hub
      .as(TOKENS.aliceWrite)
      .createWebhook(bad)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HubRequestError);
    expect((e as HubRequestError).field).toBe('job.timeoutSeconds');

    const raw = await hub.raw('/api/settings/webhooks', {
      method: 'POST',
      token: TOKENS.aliceWrite,
      body: JSON.stringify(bad),
    });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('x-error-message')).toContain('job.timeoutSeconds');
    const unknown = await hub.raw('/api/settings/webhooks', {
      method: 'POST',
      token: TOKENS.aliceWrite,
      body: JSON.stringify({ ...urlHook, colour: 'red' }),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain('colour');
    expect(allReadable(await hub.as(TOKENS.aliceWrite).listWebhooks())).toHaveLength(countBefore);
  });

  it('logs a delivery and replays it', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const hook = await alice.createWebhook({
      watched: [{ type: 'user', name: 'alice' }],
      domains: ['repo'],
      job: { dockerImage: 'python:3.12', command: ['true'], flavor: 'cpu-basic' },
    });
    expect(allReadable(await alice.listWebhookLogs(hook.id))).toEqual([]);

    // The spec has no way to cause an event; the mock hub's `/api/_mock/events` does it.
    const event = { repo: { type: 'model', name: 'alice/some-model' }, scope: 'repo.content', action: 'update' };
    const emitted = await hub.raw('/api/_mock/events', {
      method: 'POST',
      token: TOKENS.aliceWrite,
      body: JSON.stringify(event),
    });
    expect(emitted.status).toBe(200);
    const logs = await eventually(async () => {
      const list = allReadable(await alice.listWebhookLogs(hook.id));
      return list.length > 0 ? list : undefined;
    });
    expect(logs[0]).toMatchObject({ event: { action: 'update', scope: 'repo.content' } });

    await expect(alice.replayWebhookDelivery(hook.id, logs[0]!.id)).resolves.toEqual({ status: 200 });
    const after = await eventually(async () => {
      const list = allReadable(await alice.listWebhookLogs(hook.id));
      return list.length > 1 ? list : undefined;
    });
    expect(after.some((e) => e.replayOf === logs[0]!.id)).toBe(true);
    expect((await apiError(alice.replayWebhookDelivery(hook.id, 'no-such-log'))).status).toBe(404);
    expect((await apiError(hub.as(TOKENS.bobWrite).listWebhookLogs(hook.id))).status).toBe(404);
  });

  it('sends a test event and reads the delivery back with what was sent', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const hook = await alice.createWebhook({
      watched: [{ type: 'model', name: 'alice/tested' }],
      domains: ['discussion'],
      job: { dockerImage: 'python:3.12', flavor: 'cpu-basic' },
    });
    const sent = await alice.sendWebhookTestEvent(hook.id, { sample: 'discussion-comment' });
    expect(sent.status).toBe(200);
    const delivery = await alice.getWebhookDelivery(hook.id, sent.logId);
    expect(delivery).toMatchObject({
      id: sent.logId,
      test: true,
      event: { scope: 'discussion.comment', action: 'create' },
      repo: { type: 'model', name: 'alice/tested' },
      response: null,
    });
    expect(JSON.parse(delivery.request!.payload)).toMatchObject({
      comment: { content: expect.any(String) },
      webhook: { id: hook.id },
    });
    expect((await apiError(alice.sendWebhookTestEvent(hook.id, { sample: 'repo-create' }))).status).toBe(400);
    expect((await apiError(alice.getWebhookDelivery(hook.id, 'no-such-log'))).status).toBe(404);
    expect((await apiError(hub.as(TOKENS.bobWrite).getWebhookDelivery(hook.id, sent.logId))).status).toBe(404);
    expect(
      (await apiError(hub.as(TOKENS.aliceRead).sendWebhookTestEvent(hook.id, { sample: 'discussion-create' }))).status,
    ).toBe(403);
  });
});
