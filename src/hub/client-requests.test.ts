import { describe, expect, it } from 'vitest';
import { createHubClient } from './client.ts';
import { fakeFetch, json } from './fake-fetch.ts';

const c = (f: ReturnType<typeof fakeFetch>) =>
  createHubClient({ baseUrl: 'https://hub.example/prefix/', token: 'hf_alice_read', fetch: f.fetch });

describe('requests', () => {
  it('sends bearer auth to the base URL, keeping its path prefix', async () => {
    const f = fakeFetch(json({ builtInTools: [], spaceTools: [] }));
    await c(f).getMcpSettings();
    expect(f.calls[0]!.url.href).toBe('https://hub.example/prefix/api/settings/mcp');
    expect(f.calls[0]!.headers.get('authorization')).toBe('Bearer hf_alice_read');
  });

  it('percent-encodes path segments', async () => {
    const f = fakeFetch(json({ success: true }));
    await c(f).deleteResourceGroup('a/b', 'x y?');
    expect(f.calls[0]!.url.pathname).toBe('/prefix/api/organizations/a%2Fb/resource-groups/x%20y%3F');
    expect(f.calls[0]!.method).toBe('DELETE');
  });

  it('builds typed query strings with booleans as true/false', async () => {
    const f = fakeFetch(json({}));
    await c(f).markNotifications({ read: false }, { applyToAll: true, repoType: 'model', p: 2 });
    const { url, body, method } = f.calls[0]!;
    expect(method).toBe('POST');
    expect(url.pathname).toBe('/prefix/api/notifications/mark-as-read');
    expect(Object.fromEntries(url.searchParams)).toEqual({ applyToAll: 'true', repoType: 'model', p: '2' });
    expect(body).toEqual({ discussionIds: [], read: false });
  });

  it('accepts an empty body where the spec shows none', async () => {
    const f = fakeFetch(new Response('', { status: 200 }));
    await expect(c(f).patchWatch({ add: [{ id: 'alice/m', type: 'repo' }] })).resolves.toEqual({});
    await expect(c(f).deleteWebhook('a'.repeat(24))).resolves.toBeUndefined();
  });

  it('unwraps the webhook envelope', async () => {
    const hook = {
      id: 'a'.repeat(24),
      url: 'https://x.test/h',
      disabled: false,
      watched: [{ name: 'alice', type: 'user' }],
      domains: ['repo'],
    };
    const f = fakeFetch(json({ webhook: { ...hook, disabled: true } }));
    await expect(c(f).webhookAction(hook.id, 'disable')).resolves.toMatchObject({ disabled: true });
    expect(f.calls[0]!.url.pathname).toBe(`/prefix/api/settings/webhooks/${hook.id}/disable`);
  });

  it('returns audit events with the export filename and the raw body', async () => {
    const event = {
      _id: 'b'.repeat(24),
      createdAt: '2026-01-01T00:00:00Z',
      type: 'repo.create',
      message: 'created',
      author: { _id: 'c'.repeat(24), user: 'alice', avatarUrl: '', type: 'user' },
    };
    const raw = JSON.stringify([event]);
    const f = fakeFetch(
      new Response(raw, {
        headers: { 'Content-Disposition': `attachment; filename="a.json"; filename*=UTF-8''acme-audit%202026.json` },
      }),
    );
    const res = await c(f).exportAuditLog('acme', { q: 'author:alice type:repo.create' });
    expect(res).toEqual({ events: [event], filename: 'acme-audit 2026.json', raw });
    expect(f.calls[0]!.url.searchParams.get('q')).toBe('author:alice type:repo.create');
  });

  it('uses the real hub paths for jobs and papers', async () => {
    const f = fakeFetch(json([]));
    await c(f).listJobs('alice');
    expect(f.calls[0]!.url.pathname).toBe('/prefix/api/jobs/alice');
    const paper = {
      id: '2501.00001',
      _id: 'a'.repeat(24),
      title: 't',
      summary: 's',
      publishedAt: '2026-01-01',
      authors: [],
      upvotes: 3,
    };
    const g = fakeFetch(json(paper));
    await expect(c(g).getPaper('2501.00001')).resolves.toMatchObject({ id: '2501.00001', upvotes: 3 });
    expect(g.calls[0]!.url.pathname).toBe('/prefix/api/papers/2501.00001');
  });
});
