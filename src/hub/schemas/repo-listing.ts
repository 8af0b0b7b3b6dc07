import { z } from 'zod';
import { RepoName } from './repo.ts';

/**
 * `GET /api/models|datasets|spaces?author=` items as the real hub lists them (subset). Loose:
 * outside the spec, and real clients (huggingface_hub `list_models`) read only some fields.
 */
export const HubRepoListItem = z.looseObject({
  _id: z.string(),
  id: RepoName,
  author: z.string(),
  private: z.boolean(),
  likes: z.number(),
  downloads: z.number().optional(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  lastModified: z.string(),
});
export type HubRepoListItem = z.infer<typeof HubRepoListItem>;
export const HubRepoList = z.array(HubRepoListItem);

/** Loose like the real hub: its clients send extra parameters (`full`, `expand`, `filter`...). */
export const HubRepoListQuery = z.looseObject({
  author: z.string().min(1).optional(),
  search: z.string().optional(),
  limit: z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a non-negative integer').transform(Number)])
    .pipe(z.number().int().min(1))
    .optional(),
});
