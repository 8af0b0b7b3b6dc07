import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';
import { badRequest } from './http-error.ts';
import { registerRoutes } from './register-routes.ts';
import { defineRoute } from './route.ts';

describe('request pipeline', () => {
  it('sets X-Request-Id, CORS and CORP on answers and errors alike', async () => {
    const hub = await testHub();
    const ok = await call(hub, 'GET', '/api/notifications', { headers: { origin: 'http://dash.test' } });
    const err = await call(hub, 'GET', '/api/notifications', { token: null, headers: { origin: 'http://dash.test' } });
    const missing = await call(hub, 'GET', '/api/nothing-here');
    for (const r of [ok, err, missing]) {
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    }
    expect(ok.headers.get('x-request-id')).not.toBe(err.headers.get('x-request-id'));
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toContain('X-Error-Message');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('/api/nothing-here');
  });

  it('GET /api/health answers {ok:true} without a token', async () => {
    const hub = await testHub();
    const r = await call(hub, 'GET', '/api/health', { token: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true });
  });

  it('answers CORS preflights', async () => {
    const hub = await testHub();
    const res = await hub.app.request('/api/settings/webhooks', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://dash.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it('413 for a body over 1 MB, 400 for non-JSON, and nothing changes', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const big = await call(hub, 'POST', '/api/settings/webhooks', {
      rawBody: JSON.stringify({ watched: [{ type: 'user', name: 'x'.repeat(1_100_000) }] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.body.error).toContain('1 MB');
    const notJson = await call(hub, 'POST', '/api/settings/webhooks', {
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toContain('JSON');
    expect(snapshot(hub)).toBe(before);
  });

  it('a response breaking its schema (an unknown key too) is a 500 naming the field; a throwing write rolls back', async () => {
    const hub = await testHub();
    const app = new Hono();
    registerRoutes(
      app,
      [
        defineRoute({
          method: 'get',
          path: '/api/broken',
          tag: 't',
          summary: 's',
          auth: 'user',
          response: z.strictObject({ n: z.number() }),
          handler: () => ({ n: 'one' }) as unknown as { n: number },
        }),
        // The mock hub is the contract: a key its schema does not define is refused (the client drops it instead).
        defineRoute({
          method: 'get',
          path: '/api/richer',
          tag: 't',
          summary: 's',
          auth: 'user',
          response: z.strictObject({ n: z.number() }),
          handler: () => ({ n: 1, labels: {} }) as unknown as { n: number },
        }),
        defineRoute({
          method: 'post',
          path: '/api/half-done',
          tag: 't',
          summary: 's',
          auth: 'user',
          response: z.strictObject({}),
          handler: ({ hub: h }) => {
            h.store.state.notifications.alice = [];
            throw badRequest('changed my mind');
          },
        }),
      ],
      hub.context,
    );
    const broken = await app.request('/api/broken', { headers: { authorization: `Bearer ${TOKENS.aliceWrite}` } });
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { error: string }).error).toContain('response.n');
    const richer = await app.request('/api/richer', { headers: { authorization: `Bearer ${TOKENS.aliceWrite}` } });
    expect(richer.status).toBe(500);
    expect(((await richer.json()) as { error: string }).error).toContain('labels');
    const before = snapshot(hub);
    const half = await app.request('/api/half-done', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.aliceWrite}` },
    });
    expect(half.status).toBe(400);
    expect(half.headers.get('x-error-message')).toBe('changed my mind');
    expect(snapshot(hub)).toBe(before);
  });

  it('keeps error headers Latin-1 safe', async () => {
    const hub = await testHub();
    const r = await call(hub, 'GET', `/api/papers/${encodeURIComponent('ünïcode')}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toContain('ünïcode');
    expect(r.headers.get('x-error-message')).toContain('?n?code');
  });

  it('tells mutations to listeners after they commit', async () => {
    const hub = await testHub();
    const seen: string[] = [];
    hub.events.onMutation((m) => seen.push(`${m.method} ${m.route} ${m.user}`));
    await call(hub, 'PATCH', '/api/settings/watch', { body: { add: [] } });
    await call(hub, 'PATCH', '/api/settings/watch', { body: { add: [{ id: 'ghost', type: 'org' }] } });
    expect(seen).toEqual(['PATCH /api/settings/watch alice']);
  });
});
