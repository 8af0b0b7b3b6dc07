import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReceivedWebhookPayload } from './payload-schema.ts';
import { samplePayload } from './sample-payload.ts';
import { MAX_PAYLOAD_BYTES } from './arrival.ts';
import { createWebhooksServer } from './server.ts';
import { recordingLogger } from './test-logger.ts';

function post(body: unknown, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('route registration', () => {
  it('names a route after the handler function, or the explicit name', () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    function trigger_training() {
      return null;
    }
    expect(server.add(trigger_training)).toBe('/webhooks/trigger_training');
    expect(server.add(() => 1, 'echo')).toBe('/webhooks/echo');
    expect(server.add(trigger_training, '/other/')).toBe('/webhooks/other');
    expect(server.routes()).toEqual(['/webhooks/trigger_training', '/webhooks/echo', '/webhooks/other']);
  });

  it('refuses a handler with no name, a duplicate name, and a name with a slash', () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    server.add(function hook() {});
    expect(() => server.add(() => 1)).toThrow(/needs a name/);
    expect(() => server.add(() => 1, 'hook')).toThrow(/already exists/);
    expect(() => server.add(function hook() {})).toThrow(/already exists/);
    expect(() => server.add(() => 1, 'a/b')).toThrow(/Invalid webhook route name/);
  });
});

describe('secret', () => {
  it('without a secret: warns once at start and accepts every request', async () => {
    vi.stubEnv('WEBHOOK_SECRET', '');
    const logger = recordingLogger();
    const server = createWebhooksServer({ logger });
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(logger.lines[0]!.message).toMatch(/not defined/);
    server.add(() => ({ ok: true }), 'open');
    const res = await server.app.request('/webhooks/open', post(samplePayload()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('with a secret: 401 when missing, 403 when wrong, 200 when right, and no warning', async () => {
    const logger = recordingLogger();
    const calls: unknown[] = [];
    const server = createWebhooksServer({ secret: 'my_secret', logger });
    server.add((p) => calls.push(p), 'guarded');
    expect(logger.lines.some((l) => l.level === 'warn')).toBe(false);

    const missing = await server.app.request('/webhooks/guarded', post(samplePayload()));
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: expect.stringMatching(/not set/) });

    const wrong = await server.app.request(
      '/webhooks/guarded',
      post(samplePayload(), { 'X-Webhook-Secret': 'my_secreT' }),
    );
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ error: expect.stringMatching(/Invalid/) });
    expect(calls).toHaveLength(0);

    const right = await server.app.request(
      '/webhooks/guarded',
      post(samplePayload(), { 'X-Webhook-Secret': 'my_secret' }),
    );
    expect(right.status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it('reads the secret from WEBHOOK_SECRET when no option is given', async () => {
    vi.stubEnv('WEBHOOK_SECRET', 'from-env');
    const server = createWebhooksServer({ logger: recordingLogger() });
    server.add(() => 'ok', 'h');
    expect((await server.app.request('/webhooks/h', post(samplePayload()))).status).toBe(401);
    expect(
      (await server.app.request('/webhooks/h', post(samplePayload(), { 'x-webhook-secret': 'from-env' }))).status,
    ).toBe(200);
  });

  it('checks the secret before looking at the body', async () => {
    const server = createWebhooksServer({ secret: 's', logger: recordingLogger() });
    server.add(() => 'ok', 'h');
    expect((await server.app.request('/webhooks/h', post('not json'))).status).toBe(401);
  });
});

describe('delivery', () => {
  it('passes the parsed payload and the request to the handler and returns its value as JSON', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    let seen: { payload: ReceivedWebhookPayload; header: string | null } | undefined;
    server.add((payload, request) => {
      seen = { payload, header: request.headers.get('x-trace') };
      return { repo: payload.repo.name, action: payload.event.action };
    }, 'hook');
    const payload = { ...samplePayload(), addedLater: 'kept' };
    const res = await server.app.request('/webhooks/hook', post(payload, { 'x-trace': 't1' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ repo: 'alice/tiny-model', action: 'update' });
    expect(seen!.payload).toEqual(payload);
    expect(seen!.header).toBe('t1');
  });

  it('awaits async handlers and answers null for a handler that returns nothing', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    server.add(async () => {
      await new Promise((r) => setTimeout(r, 5));
      return [1, 2];
    }, 'async');
    server.add(() => undefined, 'nothing');
    expect(await (await server.app.request('/webhooks/async', post(samplePayload()))).json()).toEqual([1, 2]);
    const res = await server.app.request('/webhooks/nothing', post(samplePayload()));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('null');
  });

  it('answers 400 for a body that is not JSON, 422 for JSON that is not an object with event and repo', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    const handler = vi.fn();
    server.add(handler, 'h');
    const bad = await server.app.request('/webhooks/h', post('{"event": '));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringMatching(/JSON/) });
    for (const body of [{ hello: 'world' }, { event: samplePayload().event }, [samplePayload()], 'text', 42]) {
      const notPayload = await server.app.request('/webhooks/h', post(JSON.stringify(body)));
      expect(notPayload.status, JSON.stringify(body)).toBe(422);
      expect(((await notPayload.json()) as { error: string }).error).toContain('"event" object and a "repo" object');
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('passes payloads of a newer hub to the handler as sent: unknown fields, actions and values', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    const seen: unknown[] = [];
    server.add((payload) => {
      seen.push(payload);
      return { action: payload.event.action, type: payload.repo.type };
    }, 'h');
    const newer = {
      ...samplePayload(),
      event: { action: 'transfer', scope: 'repo.ownership' },
      repo: { ...samplePayload().repo, type: 'notebook', stars: 3 },
      webhook: { id: 'w', version: 4 },
      sbom: { format: 'spdx' },
    };
    const res = await server.app.request('/webhooks/h', post(newer));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ action: 'transfer', type: 'notebook' });
    expect(seen).toEqual([newer]);
  });

  it('answers 413 for a body over the size limit without calling the handler', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    const handler = vi.fn();
    server.add(handler, 'h');
    const huge = JSON.stringify({ ...samplePayload(), padding: 'x'.repeat(MAX_PAYLOAD_BYTES) });
    const res = await server.app.request('/webhooks/h', post(huge));
    expect(res.status).toBe(413);
    expect(await res.json()).toHaveProperty('error');
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers 500 with the message when a handler throws, logs it, and keeps serving', async () => {
    const logger = recordingLogger();
    const server = createWebhooksServer({ logger });
    let n = 0;
    server.add(() => {
      n += 1;
      if (n === 1) throw new Error('boom');
      return { n };
    }, 'flaky');
    const first = await server.app.request('/webhooks/flaky', post(samplePayload()));
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: 'boom' });
    expect(logger.lines.some((l) => l.level === 'error' && l.message.includes('boom'))).toBe(true);
    const second = await server.app.request('/webhooks/flaky', post(samplePayload()));
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ n: 2 });
  });

  it('answers 404 JSON for an unknown route and a route added after the first request works', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    const res = await server.app.request('/webhooks/missing', post(samplePayload()));
    expect(res.status).toBe(404);
    expect(await res.json()).toHaveProperty('error');
    server.add(() => 'late', 'late');
    expect(await (await server.app.request('/webhooks/late', post(samplePayload()))).json()).toBe('late');
  });
});

describe('landing page', () => {
  it('serves HTML listing the registered routes at the requested origin', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    server.add(function on_repo_update() {});
    server.add(() => 1, 'echo');
    const res = await server.app.request('http://example.test:9000/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('POST http://example.test:9000/webhooks/on_repo_update');
    expect(html).toContain('POST http://example.test:9000/webhooks/echo');
  });
});
