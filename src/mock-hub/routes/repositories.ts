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

/**
 * Entries per page. The real hub pages this listing (huggingface_hub reads it with `paginate`,
 * following `Link: rel="next"`); its page size is not shown, this one keeps every seeded owner on
 * one page. `limit` caps the whole listing; the pages split what it keeps.
 */
export const REPOSITORY_USAGE_PAGE_SIZE = 50;

/** The spec's query, plus the opaque `cursor` of the pages after the first (only ever read from a Link). */
const PagedQuery = RepositoryUsageQuery.extend({
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'cursor: follow the Link header of the previous page')
    .optional(),
});

/** One page of `rows`; a `Link: <...>; rel="next"` header while more follow. */
function page(
  rows: RepositoryUsage[],
  cursor: string | undefined,
  { url, setHeader }: { url: string; setHeader(name: string, value: string): void },
) {
  const start = Number(cursor ?? 0);
  const end = start + REPOSITORY_USAGE_PAGE_SIZE;
  if (end < rows.length) {
    const next = new URL(url);
    next.searchParams.set('cursor', String(end));
    setHeader('Link', `<${next.pathname}${next.search}>; rel="next"`);
  }
  return rows.slice(start, end);
}

const pagedHeaders = { Link: '`<...?cursor=N>; rel="next"` while more pages follow' };

const userRepos = defineRoute({
  method: 'get',
  path: '/api/settings/repositories',
  tag: 'repos',
  auth: 'user',
  summary: "Storage used by the user's repositories (storage in bytes)",
  query: PagedQuery,
  responseHeaders: pagedHeaders,
  response: RepositoryUsageList,
  handler: ({ query, auth, hub, ...c }) => page(usageOf(hub.store.state.repos, auth.user.name, query), query.cursor, c),
});

const orgRepos = defineRoute({
  method: 'get',
  path: '/api/organizations/{name}/settings/repositories',
  tag: 'orgs',
  auth: 'org',
  summary: "Storage used by the organization's repositories (storage in bytes)",
  params: z.strictObject({ name: z.string() }),
  query: PagedQuery,
  responseHeaders: pagedHeaders,
  response: RepositoryUsageList,
  handler: ({ query, params, hub, ...c }) => page(usageOf(hub.store.state.repos, params.name, query), query.cursor, c),
});

export const repositoryRoutes = [userRepos, orgRepos];
