import { z } from 'zod';
import { RepositoryUsageList, RepositoryUsageQuery, type RepositoryUsage } from '../../hub/schemas/index.ts';
import { defineRoute } from '../http/route.ts';
import type { StoredRepo } from '../store/state-schema.ts';

/**
 * `storage` is bytes; `storagePercent` is the repo's share (0..100) of its owner's total storage.
 * Sorting by storage or updatedAt; ties broken by id so pages are stable.
 */
export function usageOf(
  repos: StoredRepo[],
  owner: string,
  q: z.output<typeof RepositoryUsageQuery>,
): RepositoryUsage[] {
  const own = repos.filter((r) => r.owner === owner);
  const total = own.reduce((sum, r) => sum + r.storage, 0);
  const search = q.search?.toLowerCase();
  const dir = q.direction === 'asc' ? 1 : -1;
  const rows = own
    .filter((r) => (!q.type || r.type === q.type) && (!search || r.id.toLowerCase().includes(search)))
    .sort((a, b) => {
      const d = q.sort === 'updatedAt' ? a.updatedAt.localeCompare(b.updatedAt) : a.storage - b.storage;
      return d !== 0 ? d * dir : a.id.localeCompare(b.id);
    })
    .map((r) => ({
      id: r.id,
      type: r.type,
      updatedAt: r.updatedAt,
      visibility: r.visibility,
      storage: r.storage,
      storagePercent: total ? Math.round((r.storage / total) * 10_000) / 100 : 0,
    }));
  return q.limit ? rows.slice(0, q.limit) : rows;
}

const userRepos = defineRoute({
  method: 'get',
  path: '/api/settings/repositories',
  tag: 'repos',
  auth: 'user',
  summary: "Storage used by the user's repositories (storage in bytes)",
  query: RepositoryUsageQuery,
  response: RepositoryUsageList,
  handler: ({ query, auth, hub }) => usageOf(hub.store.state.repos, auth.user.name, query),
});

const orgRepos = defineRoute({
  method: 'get',
  path: '/api/organizations/{name}/settings/repositories',
  tag: 'orgs',
  auth: 'org',
  summary: "Storage used by the organization's repositories (storage in bytes)",
  params: z.strictObject({ name: z.string() }),
  query: RepositoryUsageQuery,
  response: RepositoryUsageList,
  handler: ({ query, params, hub }) => usageOf(hub.store.state.repos, params.name, query),
});

export const repositoryRoutes = [userRepos, orgRepos];
