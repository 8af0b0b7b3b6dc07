import { describe, expect, it } from 'vitest';
import { call, testHub } from '../test-support.ts';

type Op = {
  'x-mock-extension'?: boolean;
  parameters: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};

describe('GET /openapi.json', () => {
  it('documents every registered route, generated from the route table', async () => {
    const hub = await testHub();
    const r = await call(hub, 'GET', '/openapi.json', { token: null });
    expect(r.status).toBe(200);
    const doc = r.body as { openapi: string; info: { version: string }; paths: Record<string, Record<string, Op>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.0.1');
    for (const route of hub.routes) {
      const op = doc.paths[route.path]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op!.responses['200']).toBeDefined();
      expect(Boolean(op!['x-mock-extension'])).toBe(Boolean(route.extension));
      for (const name of Object.keys(route.params?.shape ?? {}))
        expect(op!.parameters).toContainEqual(expect.objectContaining({ name, in: 'path' }));
      if (route.body) expect(op!.requestBody).toBeDefined();
      if (route.auth !== 'none') expect(op!.responses['401']).toBeDefined();
    }
  });

  it('declares every path template parameter and resolves every $ref', async () => {
    const hub = await testHub();
    const doc = (await call(hub, 'GET', '/openapi.json', { token: null })).body as {
      paths: Record<string, Record<string, Op>>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        for (const name of names)
          expect(op.parameters, `${method} ${path} {${name}}`).toContainEqual(
            expect.objectContaining({ name, in: 'path' }),
          );
      }
    }
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g))
      expect(doc.components.schemas[ref[1]!]).toBeDefined();
  });

  it('covers every endpoint of the spec', async () => {
    const hub = await testHub();
    const doc = (await call(hub, 'GET', '/openapi.json', { token: null })).body as {
      paths: Record<string, Record<string, Op>>;
    };
    const spec = [
      'get /api/notifications',
      'delete /api/notifications',
      'post /api/notifications/mark-as-read',
      'get /api/settings/mcp',
      'patch /api/settings/notifications',
      'patch /api/settings/watch',
      'post /api/settings/papers/claim',
      'get /api/settings/repositories',
      'get /api/settings/webhooks',
      'post /api/settings/webhooks',
      'get /api/settings/webhooks/{webhookId}',
      'post /api/settings/webhooks/{webhookId}',
      'delete /api/settings/webhooks/{webhookId}',
      'post /api/settings/webhooks/{webhookId}/{action}',
      'post /api/organizations/{name}/settings/tokens/revoke',
      'get /api/organizations/{name}/settings/repositories',
      'get /api/organizations/{name}/audit-log/export',
      'get /api/organizations/{name}/resource-groups/{resourceGroupId}',
      'patch /api/organizations/{name}/resource-groups/{resourceGroupId}',
      'delete /api/organizations/{name}/resource-groups/{resourceGroupId}',
    ];
    for (const entry of spec) {
      const [method, path] = entry.split(' ') as [string, string];
      const op = doc.paths[path]?.[method];
      expect(op, entry).toBeDefined();
      expect(op!['x-mock-extension'], entry).toBeUndefined();
    }
    expect(doc.paths['/api/whoami-v2']!.get!['x-mock-extension']).toBe(true);
    const notif = doc.paths['/api/notifications']!.get!;
    expect(notif.parameters.map((p) => p.name).sort()).toEqual([
      'articleId',
      'lastUpdate',
      'mention',
      'p',
      'paperId',
      'postAuthor',
      'readStatus',
      'repoName',
      'repoType',
    ]);
    expect(doc.paths['/{namespace}/{repo}/resolve/{revision}/{path}']!.get!['x-mock-extension']).toBe(true);
    const exportOp = doc.paths['/api/organizations/{name}/audit-log/export']!.get! as Op & {
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    expect(Object.keys(exportOp.responses['200']!.headers!)).toContain('Content-Disposition');
  });
});
