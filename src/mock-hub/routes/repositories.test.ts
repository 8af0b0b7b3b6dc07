import { describe, expect, it } from 'vitest';
import { RepositoryUsageList, type RepositoryUsage } from '../../hub/schemas/index.ts';
import { TOKENS, call, testHub } from '../test-support.ts';

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
});
