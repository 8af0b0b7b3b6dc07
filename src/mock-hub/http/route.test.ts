import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOKENS, testHub } from '../test-support.ts';
import { registerRoutes } from './register-routes.ts';
import { defineRoute } from './route.ts';

const Seen = z.strictObject({ user: z.string().nullable(), org: z.string().nullable(), role: z.string().nullable() });
const NameParams = z.strictObject({ name: z.string() });

describe('route context by auth kind', () => {
  it('hands org routes the caller and their org, optional routes the caller if any', async () => {
    const hub = await testHub();
    const app = new Hono();
    registerRoutes(
      app,
      [
        defineRoute({
          method: 'get',
          path: '/api/t/{name}',
          tag: 't',
          summary: 's',
          auth: 'org',
          params: NameParams,
          response: Seen,
          handler: ({ auth, org }) => ({ user: auth.user.name, org: org.name, role: org.role }),
        }),
        defineRoute({
          method: 'get',
          path: '/api/t',
          tag: 't',
          summary: 's',
          auth: 'optional',
          response: Seen,
          handler: ({ auth }) => ({ user: auth?.user.name ?? null, org: null, role: null }),
        }),
        defineRoute({
          method: 'get',
          path: '/api/u',
          tag: 't',
          summary: 's',
          auth: 'user',
          response: Seen,
          // @ts-expect-error -- only org routes get `org`
          handler: ({ auth, org }) => ({ user: auth.user.name, org: org, role: null }),
        }),
        defineRoute({
          method: 'get',
          path: '/api/n',
          tag: 't',
          summary: 's',
          auth: 'none',
          response: Seen,
          // @ts-expect-error -- routes without auth get no caller
          handler: ({ auth }) => ({ user: auth, org: null, role: null }),
        }),
      ],
      hub.context,
    );
    const get = async (path: string, token?: string) => {
      const res = await app.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    expect(await get('/api/t/acme', TOKENS.bobWrite)).toEqual({
      status: 200,
      body: { user: 'bob', org: 'acme', role: 'read' },
    });
    expect((await get('/api/t/acme', TOKENS.carolFine)).status).toBe(403);
    expect((await get('/api/t/ghost', TOKENS.bobWrite)).status).toBe(404);
    expect(await get('/api/t')).toEqual({ status: 200, body: { user: null, org: null, role: null } });
    expect((await get('/api/t', TOKENS.aliceRead)).body).toMatchObject({ user: 'alice' });
  });
});
