import { describe, expect, it } from 'vitest';
import { RepositoryUsageList, type RepositoryUsage } from '../../hub/schemas/index.ts';
import { TOKENS, call, testHub } from '../test-support.ts';
import { REPOSITORY_USAGE_PAGE_SIZE } from './repositories.ts';

/** `n` more repositories of alice's, so that her listing runs over several pages. */
function addRepos(hub: Awaited<ReturnType<typeof testHub>>, n: number) {
  hub.store.transaction((s) => {
    for (let i = 0; i < n; i++)
      s.repos.push({
        id: `alice/paged-${String(i).padStart(3, '0')}`,
        type: 'model',
        owner: 'alice',
        visibility: 'public',
        storage: 1000 + i,
        createdAt: '2026-11-01T12:00:00.000Z',
        updatedAt: '2026-11-01T12:00:00.000Z',
        likes: 0,
        downloads: 0,
      });
  });
}

describe('repository usage', () => {
  it('lists the user’s repos by storage desc by default, percentages adding up to 100', async () => {
    const hub = await testHub();
    const r = await call(hub, 'GET', '/api/settings/repositories');
    const rows = RepositoryUsageList.parse(r.body);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(new Set(rows.map((x) => x.type)).size).toBe(5);
    expect(rows.map((x) => x.storage)).toEqual([...rows.map((x) => x.storage)].sort((a, b) => b - a));
    expect(rows.reduce((s, x) => s + x.storagePercent, 0)).toBeCloseTo(100, 0);
  });

  it('search, type, limit, sort and direction', async () => {
    const hub = await testHub();
    const r = await call(
      hub,
      'GET',
      '/api/settings/repositories?search=MODEL&type=model&limit=3&sort=updatedAt&direction=asc',
    );
    const rows = r.body as RepositoryUsage[];
    expect(rows).toHaveLength(3);
    expect(rows.every((x) => x.type === 'model' && x.id.toLowerCase().includes('model'))).toBe(true);
    expect(rows.map((x) => x.updatedAt)).toEqual([...rows.map((x) => x.updatedAt)].sort());
  });

  it('400s bad parameters', async () => {
    const hub = await testHub();
    for (const q of ['limit=0', 'sort=name', 'direction=up', 'type=repo', 'page=2'])
      expect((await call(hub, 'GET', `/api/settings/repositories?${q}`)).status, q).toBe(400);
  });

  it('org listing: members only, 404 unknown org, 403 non-member', async () => {
    const hub = await testHub();
    const acme = await call(hub, 'GET', '/api/organizations/acme/settings/repositories?limit=5', {
      token: TOKENS.bobWrite,
    });
    expect(acme.status).toBe(200);
    expect(acme.body.every((x: RepositoryUsage) => x.id.startsWith('acme/'))).toBe(true);
    expect((await call(hub, 'GET', '/api/organizations/nope/settings/repositories')).status).toBe(404);
    const outsider = await call(hub, 'GET', '/api/organizations/acme/settings/repositories', {
      token: TOKENS.carolFine,
    });
    expect(outsider.status).toBe(403);
    expect(outsider.body.error).toContain('not a member');
  });

  it.each([false, true])(
    'pages the listing with Link: rel="next" (spec-only %s); the pages add up to the listing',
    async (specOnly) => {
      const hub = await testHub({ specOnly });
      addRepos(hub, 2 * REPOSITORY_USAGE_PAGE_SIZE);
      const pages: RepositoryUsage[][] = [];
      let next: string | undefined = '/api/settings/repositories?sort=storage&direction=asc';
      while (next) {
        const r = await call(hub, 'GET', next);
        expect(r.status).toBe(200);
        pages.push(RepositoryUsageList.parse(r.body));
        next = /<([^>]+)>; rel="next"/.exec(r.headers.get('link') ?? '')?.[1];
      }
      const rows = pages.flat();
      expect(pages.map((p) => p.length).slice(0, -1)).toEqual(pages.slice(0, -1).map(() => REPOSITORY_USAGE_PAGE_SIZE));
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      expect(rows.map((r) => r.storage)).toEqual([...rows.map((r) => r.storage)].sort((a, b) => a - b));
      expect(rows.reduce((sum, r) => sum + r.storagePercent, 0)).toBeCloseTo(100, 0);
      expect((await call(hub, 'GET', '/api/settings/repositories?cursor=abc')).status).toBe(400);
    },
  );
});
