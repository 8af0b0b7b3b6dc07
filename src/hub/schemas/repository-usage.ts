import { z } from 'zod';
import { queryInt } from './common.ts';
import { RepoType, Visibility } from './repo.ts';

/** Repository usage entry. `storage` is in bytes (the spec leaves units unshown; see docs/decisions.md). */
export const RepositoryUsage = z.strictObject({
  id: z.string(),
  type: RepoType,
  updatedAt: z.string(),
  visibility: Visibility,
  storage: z.number(),
  storagePercent: z.number(),
});
export type RepositoryUsage = z.infer<typeof RepositoryUsage>;
export const RepositoryUsageList = z.array(RepositoryUsage);

export const RepositoryUsageQuery = z.strictObject({
  search: z.string().optional(),
  type: RepoType.optional(),
  limit: queryInt(1).optional(),
  sort: z.enum(['storage', 'updatedAt']).default('storage'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type RepositoryUsageQuery = z.input<typeof RepositoryUsageQuery>;
