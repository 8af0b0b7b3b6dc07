import { describe, expect, it } from 'vitest';
import { createHubClient } from './client.ts';
import { HubApiError, HubNetworkError, HubRequestError, HubSchemaError } from './errors.ts';
import { fakeFetch, json } from './fake-fetch.ts';

const TOKEN = 'hf_alice_write';
const client = (f: ReturnType<typeof fakeFetch>, extra = {}) =>
  createHubClient({ baseUrl: 'http://hub.test/', token: TOKEN, fetch: f.fetch, ...extra });

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

describe('HubApiError', () => {
  it('takes the message from the JSON error body, the request id from X-Request-Id', async () => {
    const f = fakeFetch(
      json({ error: 'url: must be an http(s) URI' }, 400, { 'X-Request-Id': 'req-42', 'X-Error-Message': 'other' }),
    );
    const e = await failure(client(f).listWebhooks());
    expect(e).toBeInstanceOf(HubApiError);
    const api = e as HubApiError;
    expect(api.status).toBe(400);
    expect(api.hubMessage).toBe('url: must be an http(s) URI');
    expect(api.field).toBe('url');
    expect(api.requestId).toBe('req-42');
    expect(api.method).toBe('GET');
    expect(api.path).toBe('/api/settings/webhooks');
  });

  it('falls back to X-Error-Message, then the status text, never a blank message', async () => {
    const fromHeader = fakeFetch(
      new Response('', {
        status: 403,
        headers: { 'X-Error-Message': 'Audit log export needs a Team or Enterprise plan' },
      }),
    );
    expect((await failure(client(fromHeader).exportAuditLog('freeorg'))).message).toContain(
      'needs a Team or Enterprise plan',
    );

    const bare = fakeFetch(new Response('', { status: 502, statusText: 'Bad Gateway' }));
    expect((await failure(client(bare).getMcpSettings())).message).toContain('502: Bad Gateway');

    const nothing = fakeFetch(new Response('<html>oops</html>', { status: 500 }));
    const e = (await failure(client(nothing).getMcpSettings())) as HubApiError;
    expect(e.hubMessage).toBe('HTTP 500');
  });

  it('leaves query values out of the path and the message', async () => {
    const f = fakeFetch(json({ error: 'nope' }, 400));
    const e = (await failure(client(f).exportAuditLog('acme', { q: 'ip:10.0.0.1' }))) as HubApiError;
    expect(f.calls[0]!.url.searchParams.get('q')).toBe('ip:10.0.0.1');
    expect(e.path).toBe('/api/organizations/acme/audit-log/export');
    expect(e.message).not.toContain('10.0.0.1');
  });

  it('never puts a token in a message, even when the hub echoes it', async () => {
    const f = fakeFetch(json({ error: `token hf_bob_write is not a member token; you sent Bearer ${TOKEN}` }, 400));
    const e = await failure(client(f).revokeOrgToken('acme', { token: 'hf_bob_write' }));
    expect(e.message).not.toContain('hf_bob_write');
    expect(e.message).not.toContain(TOKEN);
    expect(String(e)).not.toContain(TOKEN);
  });
});

describe('HubSchemaError', () => {
  it('names the endpoint and the path that broke the schema', async () => {
    const hook = {
      id: 'f'.repeat(24),
      disabled: false,
      // An unknown type string now reads as itself (issue 22); a number is still no watched type.
      watched: [{ name: 'alice', type: 42 }],
      domains: ['repo'],
    };
    const f = fakeFetch(json({ webhook: hook }));
    const e = (await failure(client(f).getWebhook('f'.repeat(24)))) as HubSchemaError;
    expect(e).toBeInstanceOf(HubSchemaError);
    expect(e.endpoint).toBe(`GET /api/settings/webhooks/${'f'.repeat(24)}`);
    expect(e.issues.map((i) => i.path)).toContain('webhook.watched[0].type');
    expect(e.message).toContain('webhook.watched[0].type');
  });

  it('reports a body that is not JSON', async () => {
    const f = fakeFetch(new Response('<html></html>', { status: 200 }));
    const e = (await failure(client(f).getMcpSettings())) as HubSchemaError;
    expect(e).toBeInstanceOf(HubSchemaError);
    expect(e.issues[0]!.message).toBe('response body is not JSON');
  });
});

describe('HubRequestError', () => {
  it('validates bodies before sending and names the field', async () => {
    const f = fakeFetch(json({}));
    const e = (await failure(
      client(f).createWebhook({
        watched: [{ type: 'model', name: 'alice/m' }],
        domains: ['repo'],
        job: { flavor: 'cpu-basic', dockerImage: 'x', timeoutSeconds: 0 },
      }),
    )) as HubRequestError;
    expect(e).toBeInstanceOf(HubRequestError);
    expect(e.field).toBe('job.timeoutSeconds');
    expect(f.calls).toHaveLength(0);
  });

  it('validates queries and path segments before sending', async () => {
    const f = fakeFetch(json([]));
    expect(((await failure(client(f).listRepositoryUsage({ limit: 0 }))) as HubRequestError).field).toBe('limit');
    expect(((await failure(client(f).getResourceGroup('acme', ''))) as HubRequestError).field).toBe('resourceGroupId');
    expect(
      ((await failure(client(f).webhookAction('a'.repeat(24), 'explode' as 'enable'))) as HubRequestError).issues,
    ).toHaveLength(1);
    expect(((await failure(client(f).revokeOrgToken('acme', { token: 'ghp_x' }))) as HubRequestError).field).toBe(
      'token',
    );
    expect(f.calls).toHaveLength(0);
  });
});

describe('HubNetworkError', () => {
  it('wraps a failed fetch', async () => {
    const f = fakeFetch(new TypeError('fetch failed'));
    const e = (await failure(client(f).whoami())) as HubNetworkError;
    expect(e).toBeInstanceOf(HubNetworkError);
    expect(e.kind).toBe('network');
    expect(e.message).toBe('GET /api/whoami-v2 could not reach the hub: fetch failed');
  });

  it('times out', async () => {
    const hang = (_: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const c = createHubClient({ baseUrl: 'http://hub.test', token: TOKEN, fetch: hang, timeoutMs: 20 });
    const e = (await failure(c.whoami())) as HubNetworkError;
    expect(e.kind).toBe('timeout');
  });

  it('reports a caller abort as aborted', async () => {
    const hang = (_: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const c = createHubClient({ baseUrl: 'http://hub.test', token: TOKEN, fetch: hang });
    const controller = new AbortController();
    const p = c.listWebhooks({ signal: controller.signal });
    controller.abort();
    expect(((await failure(p)) as HubNetworkError).kind).toBe('aborted');
  });
});
