import { describe, expect, it } from 'vitest';
import { createHubClient } from './client.ts';
import { fakeFetch, json } from './fake-fetch.ts';
import { allReadable } from './tolerant-response.ts';

const BASE = 'https://hub.example/prefix';
const usage = (id: string, storage: number) => ({
  id,
  type: 'model',
  updatedAt: '2026-11-01T12:00:00.000Z',
  visibility: 'public',
  storage,
  storagePercent: 0,
});

describe('repository storage listing', () => {
  it.each([
    ['listRepositoryUsage', '/api/settings/repositories'],
    ['listOrgRepositoryUsage', '/api/organizations/acme/settings/repositories'],
  ] as const)('%s follows Link: rel="next" on this hub and returns every page', async (method, path) => {
    const f = fakeFetch(
      json([usage('a/1', 1), usage('a/2', 2)], 200, { Link: `<${BASE}${path}?cursor=2&limit=9>; rel="next"` }),
      json([usage('a/3', 3)], 200, { Link: `</prefix${path}?cursor=3&limit=9>; rel="next"` }),
      json([usage('a/4', 4)], 200, {
        Link: '<https://elsewhere.example/api/settings/repositories?cursor=4>; rel="next"',
      }),
      json([usage('never', 5)]),
    );
    const client = createHubClient({ baseUrl: BASE, token: 't', fetch: f.fetch });
    const rows = allReadable(
      method === 'listRepositoryUsage'
        ? await client.listRepositoryUsage({ limit: 9 })
        : await client.listOrgRepositoryUsage('acme', { limit: 9 }),
    );
    expect(rows.map((r) => [r.id, r.storage])).toEqual([
      ['a/1', 1],
      ['a/2', 2],
      ['a/3', 3],
      ['a/4', 4],
    ]);
    expect(f.calls.map((c) => `${c.url.pathname}${c.url.search}`)).toEqual([
      `/prefix${path}?limit=9&sort=storage&direction=desc`,
      `/prefix${path}?cursor=2&limit=9`,
      `/prefix${path}?cursor=3&limit=9`,
    ]);
  });
});
