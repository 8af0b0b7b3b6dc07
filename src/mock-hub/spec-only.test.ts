import { describe, expect, it } from 'vitest';
import { servedInSpecOnlyMode } from './http/route.ts';
import { SEED_WEBHOOK_IDS } from './seed/webhooks.ts';
import { call, testHub } from './test-support.ts';

/** A request path for a route: path parameters filled with ids that exist for alice. */
function pathOf(template: string): string {
  const values: Record<string, string> = {
    name: 'acme',
    webhookId: SEED_WEBHOOK_IDS.aliceUrl,
    resourceGroupId: '1945c495ec9458913a736cea',
    namespace: 'alice',
    paperId: '2501.00001',
    jobId: 'x',
    logId: 'x',
    action: 'enable',
  };
  return template.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? 'x');
}

describe('spec-only mode', () => {
  it('marks every extension: the real hub has it (with a public client as evidence), mock-only, or tooling', async () => {
    const hub = await testHub();
    const verdicts = hub.routes
      .filter((r) => r.extension)
      .map((r) => [`${r.method.toUpperCase()} ${r.path}`, typeof r.extension === 'object' ? 'real' : r.extension]);
    expect(Object.fromEntries(verdicts)).toEqual({
      'GET /api/health': 'tooling',
      'GET /openapi.json': 'tooling',
      'POST /api/_mock/events': 'tooling',
      'GET /api/settings/notifications': 'mock-only',
      'GET /api/settings/watch': 'mock-only',
      'GET /api/settings/webhooks/{webhookId}/logs': 'mock-only',
      'GET /api/settings/webhooks/{webhookId}/logs/{logId}': 'mock-only',
      'POST /api/_mock/webhooks/{webhookId}/test': 'mock-only',
      'GET /api/_mock/webhooks/{webhookId}/request': 'mock-only',
      'GET /api/organizations/{name}/resource-groups': 'mock-only',
      'POST /api/organizations/{name}/resource-groups': 'mock-only',
      'GET /api/papers/{paperId}': 'real',
      'GET /api/whoami-v2': 'real',
      'GET /api/jobs/{namespace}': 'real',
      'GET /api/jobs/{namespace}/{jobId}': 'real',
      'POST /api/jobs/{namespace}/{jobId}/cancel': 'real',
      'GET /api/jobs/{namespace}/{jobId}/logs': 'real',
      'GET /api/models': 'real',
      'GET /api/models/{namespace}/{repo}/tree/{revision}': 'real',
      'GET /api/models/{namespace}/{repo}/revision/{revision}': 'real',
      'GET /api/datasets': 'real',
      'GET /api/spaces': 'real',
    });
    for (const r of hub.routes) {
      if (typeof r.extension === 'object')
        expect(r.extension.realHub, r.path).toMatch(
          /huggingface_hub src\/huggingface_hub\/hf_api\.py HfApi\.\w+|huggingface\.js packages\/hub\/src\/lib\/\S+\.ts \w+/,
        );
    }
  });

  it('answers mock-only routes exactly as an unknown route, and serves everything else as before', async () => {
    const full = await testHub();
    const spec = await testHub({ specOnly: true });
    const unknown = await call(spec, 'GET', '/api/no-such-endpoint');
    expect(unknown.status).toBe(404);
    for (const r of full.routes) {
      const method = r.method.toUpperCase();
      const path = pathOf(r.path);
      const body = r.method === 'get' || r.method === 'delete' ? undefined : {};
      const answer = await call(spec, method, path, body === undefined ? {} : { body });
      if (servedInSpecOnlyMode(r)) {
        expect(String(answer.body?.error ?? ''), `${method} ${r.path}`).not.toMatch(/^no route /);
        continue;
      }
      expect(answer.status, `${method} ${r.path}`).toBe(404);
      expect(answer.body).toEqual({ error: `no route ${method} ${path} on the mock hub (see /openapi.json)` });
      expect(answer.headers.get('x-error-message')).toBe(answer.body.error);
      const inFull = await call(full, method, path, body === undefined ? {} : { body });
      expect(String(inFull.body?.error ?? ''), `${method} ${r.path} in full mode`).not.toMatch(/^no route /);
    }
  });

  it('leaves mock-only routes out of /openapi.json and keeps the rest', async () => {
    const full = await testHub();
    const spec = await testHub({ specOnly: true });
    const doc = (await call(spec, 'GET', '/openapi.json', { token: null })).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const r of full.routes)
      expect(Boolean(doc.paths[r.path]?.[r.method]), `${r.method} ${r.path}`).toBe(servedInSpecOnlyMode(r));
    expect(doc.paths['/api/_mock/events']?.post).toBeDefined();
    expect(doc.paths['/{namespace}/{repo}/resolve/{revision}/{path}']).toBeDefined();
  });
});
