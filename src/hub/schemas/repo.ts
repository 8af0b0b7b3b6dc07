import { z } from 'zod';

export const REPO_TYPES = ['dataset', 'model', 'space', 'bucket', 'kernel'] as const;
export const RepoType = z.enum(REPO_TYPES);
export type RepoType = z.infer<typeof RepoType>;

/** `namespace/name`. */
export const RepoName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be of the form namespace/name');

export const RepoId = z.strictObject({ name: RepoName, type: RepoType });
export type RepoId = z.infer<typeof RepoId>;

export const Visibility = z.enum(['public', 'private', 'protected']);

/**
 * Where a repo's page is on the hub's website: models at the root, other types under their plural
 * (huggingface_hub's `Discussion.url` and `RepoUrl` build them the same way).
 */
const WEB_PREFIX: Record<RepoType, string> = {
  model: '',
  dataset: 'datasets/',
  space: 'spaces/',
  bucket: 'buckets/',
  kernel: 'kernels/',
};

/** `/<prefix><namespace>/<name>`, each segment percent-encoded. */
export function repoWebPath(type: RepoType, name: string): string {
  // A type the spec does not list (read as the hub sent it) goes under its plural, as the others do.
  const prefix = Object.hasOwn(WEB_PREFIX, type) ? WEB_PREFIX[type] : `${type}s/`;
  return `/${prefix}${name.split('/').map(encodeURIComponent).join('/')}`;
}
