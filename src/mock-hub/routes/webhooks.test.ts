import { describe, expect, it } from 'vitest';
import { Webhook, WebhookList } from '../../hub/schemas/index.ts';
import { SEED_JOB_IDS, SEED_WEBHOOK_IDS } from '../seed/webhooks.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

const urlHook = {
  watched: [{ type: 'model', name: 'alice/some-model' }],
  domains: ['repo'],
  url: 'https://receiver.test/webhooks/a',
  secret: 's3cret value',
};
const jobHook = {
  watched: [{ type: 'org', name: 'acme' }],
  domains: ['repo', 'discussion'],
  job: {
    dockerImage: 'python:3.12',
    command: ['python', 'run.py'],
    environment: { MODE: 'x' },
    secrets: { HF_TOKEN: 'hf_xxx' },
    flavor: 'cpu-basic',
    labels: { a: 'b' },
    expose: { ports: [8080] },
  },
};

describe('webhooks CRUD', () => {
  it('lists the seeded webhooks of the caller only', async () => {
    const hub = await testHub();
    const alice = WebhookList.parse((await call(hub, 'GET', '/api/settings/webhooks')).body);
    expect(alice.some((w) => w.url) && alice.some((w) => w.job)).toBe(true);
    const bob = WebhookList.parse((await call(hub, 'GET', '/api/settings/webhooks', { token: TOKENS.bobWrite })).body);
    expect(bob.map((w) => w.id)).toEqual([SEED_WEBHOOK_IDS.bobUrl]);
  });

  it('creates, reads, updates and deletes', async () => {
    const hub = await testHub();
    const created = await call(hub, 'POST', '/api/settings/webhooks', { body: urlHook });
    expect(created.status).toBe(200);
    const hook = Webhook.parse(created.body.webhook);
    expect(hook).toMatchObject({ disabled: false, url: urlHook.url, secret: urlHook.secret, domains: ['repo'] });
    expect((await call(hub, 'GET', `/api/settings/webhooks/${hook.id}`)).body.webhook).toEqual(hook);

    const updated = await call(hub, 'POST', `/api/settings/webhooks/${hook.id}`, { body: jobHook });
    expect(updated.status).toBe(200);
    expect(updated.body.webhook.id).toBe(hook.id);
    expect(updated.body.webhook.url).toBeUndefined();
    expect(updated.body.webhook.job.secrets).toEqual(['HF_TOKEN']);
    expect(JSON.stringify(updated.body)).not.toContain('hf_xxx');
    expect(updated.body.webhook.job.timeoutSeconds).toBeNull();

    expect((await call(hub, 'DELETE', `/api/settings/webhooks/${hook.id}`)).body).toEqual({});
    expect((await call(hub, 'GET', `/api/settings/webhooks/${hook.id}`)).status).toBe(404);
  });

  it('enable and disable move between the states, enable lifts suspended-after-failure', async () => {
    const hub = await testHub();
    const id = SEED_WEBHOOK_IDS.aliceSuspended;
    expect((await call(hub, 'GET', `/api/settings/webhooks/${id}`)).body.webhook.disabled).toBe(
      'suspended-after-failure',
    );
    expect((await call(hub, 'POST', `/api/settings/webhooks/${id}/enable`)).body.webhook.disabled).toBe(false);
    expect((await call(hub, 'POST', `/api/settings/webhooks/${id}/disable`)).body.webhook.disabled).toBe(true);
    expect((await call(hub, 'POST', `/api/settings/webhooks/${id}/pause`)).status).toBe(400);
  });

  it('jobSourceId must name an existing job', async () => {
    const hub = await testHub();
    const base = { watched: [{ type: 'user', name: 'alice' }], domains: ['repo'] };
    expect(
      (
        await call(hub, 'POST', '/api/settings/webhooks', {
          body: { ...base, jobSourceId: SEED_JOB_IDS.aliceCompleted },
        })
      ).status,
    ).toBe(200);
    expect((await call(hub, 'POST', '/api/settings/webhooks', { body: { ...base, jobSourceId: 'nope' } })).status).toBe(
      404,
    );
  });

  it('rejects invalid bodies naming the field, and changes nothing', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const cases: [unknown, string][] = [
      [{ ...urlHook, watched: [] }, 'body.watched'],
      [{ ...urlHook, domains: ['push'] }, 'body.domains[0]'],
      [{ ...urlHook, url: 'not a url' }, 'body.url'],
      [{ ...urlHook, secret: 'tab\there' }, 'body.secret'],
      [{ ...urlHook, color: 'red' }, 'color'],
      [{ ...urlHook, job: jobHook.job }, 'exactly one target'],
      [{ ...jobHook, job: { ...jobHook.job, flavor: 'gpu-huge' } }, 'body.job.flavor'],
      [{ ...jobHook, job: { ...jobHook.job, timeoutSeconds: 0 } }, 'body.job.timeoutSeconds'],
      [{ ...jobHook, job: { ...jobHook.job, attempts: 0 } }, 'body.job.attempts'],
      [{ ...jobHook, job: { ...jobHook.job, environment: { '1BAD': 'x' } } }, 'body.job.environment'],
      [{ ...jobHook, job: { ...jobHook.job, labels: { 'bad key!': 'x' } } }, 'body.job.labels'],
      [{ ...jobHook, job: { ...jobHook.job, expose: { ports: [70000] } } }, 'body.job.expose.ports[0]'],
      [
        { ...jobHook, job: { ...jobHook.job, volumes: [{ type: 'model', source: 'a/b', mountPath: 'data' }] } },
        'body.job.volumes[0].mountPath',
      ],
    ];
    for (const [body, field] of cases) {
      const r = await call(hub, 'POST', '/api/settings/webhooks', { body });
      expect(r.status, field).toBe(400);
      expect(r.body.error, field).toContain(field);
    }
    expect((await call(hub, 'POST', '/api/settings/webhooks', { token: TOKENS.aliceRead, body: urlHook })).status).toBe(
      403,
    );
    expect((await call(hub, 'POST', '/api/settings/webhooks', { token: null, body: urlHook })).status).toBe(401);
    expect(
      (await call(hub, 'DELETE', `/api/settings/webhooks/${SEED_WEBHOOK_IDS.aliceUrl}`, { token: TOKENS.aliceRead }))
        .status,
    ).toBe(403);
    expect(snapshot(hub)).toBe(before);
  });

  it('updates partially as huggingface_hub sends it: left-out fields and an empty watched keep their values', async () => {
    const hub = await testHub();
    const url = Webhook.parse((await call(hub, 'POST', '/api/settings/webhooks', { body: urlHook })).body.webhook);
    // update_webhook(webhook_id, domains=[...]) sends {"watched": [], "domains": [...]}.
    const r1 = await call(hub, 'POST', `/api/settings/webhooks/${url.id}`, {
      body: { watched: [], domains: ['discussion'] },
    });
    expect(r1.status).toBe(200);
    expect(Webhook.parse(r1.body.webhook)).toMatchObject({
      url: urlHook.url,
      secret: urlHook.secret,
      watched: urlHook.watched,
      domains: ['discussion'],
    });

    const job = Webhook.parse((await call(hub, 'POST', '/api/settings/webhooks', { body: jobHook })).body.webhook);
    const r2 = await call(hub, 'POST', `/api/settings/webhooks/${job.id}`, {
      body: { watched: [{ type: 'user', name: 'bob' }] },
    });
    const kept = Webhook.parse(r2.body.webhook);
    expect(kept.job).toEqual(job.job);
    expect(kept.url).toBeUndefined();
    expect(kept.watched.map((w) => w.name)).toEqual(['bob']);

    // A given target replaces the stored one; two targets at once are refused and change nothing.
    const before = snapshot(hub);
    const bad = await call(hub, 'POST', `/api/settings/webhooks/${job.id}`, {
      body: { url: 'https://a.test/x', jobSourceId: 'j' },
    });
    expect(bad.status).toBe(400);
    expect(snapshot(hub)).toEqual(before);
    const r3 = await call(hub, 'POST', `/api/settings/webhooks/${job.id}`, { body: { url: 'https://a.test/x' } });
    expect(Webhook.parse(r3.body.webhook)).toMatchObject({
      url: 'https://a.test/x',
      watched: [{ type: 'user', name: 'bob' }],
    });
    expect(r3.body.webhook.job).toBeUndefined();
  });

  it('keeps a left-out job whole, secret values included, and removes the secret on secret: ""', async () => {
    const hub = await testHub();
    const job = Webhook.parse(
      (await call(hub, 'POST', '/api/settings/webhooks', { body: { ...jobHook, secret: 'hook-secret' } })).body.webhook,
    );
    const request = async () => (await call(hub, 'GET', `/api/_mock/webhooks/${job.id}/request`)).body;
    const before = await request();
    expect(before.request.job).toMatchObject({
      secrets: { HF_TOKEN: 'hf_xxx' },
      expose: { ports: [8080] },
      attempts: 1,
    });
    await call(hub, 'POST', `/api/settings/webhooks/${job.id}`, { body: { domains: ['repo'] } });
    expect((await request()).request.job).toEqual(before.request.job);

    const cleared = await call(hub, 'POST', `/api/settings/webhooks/${job.id}`, { body: { secret: '' } });
    expect(cleared.body.webhook.secret).toBeUndefined();
    expect((await request()).request).toEqual({ ...before.request, domains: ['repo'], secret: undefined });
    expect((await call(hub, 'GET', `/api/_mock/webhooks/${job.id}/request`, { token: TOKENS.bobWrite })).status).toBe(
      404,
    );
  });

  it("treats another user's webhook as not found", async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    expect(
      (await call(hub, 'GET', `/api/settings/webhooks/${SEED_WEBHOOK_IDS.aliceUrl}`, { token: TOKENS.bobWrite }))
        .status,
    ).toBe(404);
    expect(
      (await call(hub, 'DELETE', `/api/settings/webhooks/${SEED_WEBHOOK_IDS.aliceUrl}`, { token: TOKENS.bobWrite }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(hub, 'POST', `/api/settings/webhooks/${SEED_WEBHOOK_IDS.aliceUrl}/disable`, {
          token: TOKENS.bobWrite,
        })
      ).status,
    ).toBe(404);
    expect(snapshot(hub)).toBe(before);
  });
});
