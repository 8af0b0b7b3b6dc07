import { useMemo } from 'react';
import { useSearchPatch } from '../../components/url/use-search-patch.ts';
import { REPO_TYPES, type RepoType } from '../../hub/schemas/index.ts';

export type SortKey = 'storage' | 'updatedAt';
export type Direction = 'asc' | 'desc';

export interface StorageParams {
  /** Empty: the signed-in user's own repositories. */
  org: string;
  sort: SortKey;
  direction: Direction;
  search: string;
  type: RepoType | '';
  limit: number | null;
}

const isRepoType = (v: string | null): v is RepoType => (REPO_TYPES as readonly string[]).includes(v ?? '');

/** Filters live in the URL, so a view can be bookmarked; bad values fall back to defaults. */
export function useStorageParams(): [StorageParams, (patch: Partial<StorageParams>) => void] {
  const [sp, update] = useSearchPatch();
  const params = useMemo<StorageParams>(() => {
    const limit = Number(sp.get('limit'));
    return {
      org: sp.get('org') ?? '',
      sort: sp.get('sort') === 'updatedAt' ? 'updatedAt' : 'storage',
      direction: sp.get('direction') === 'asc' ? 'asc' : 'desc',
      search: sp.get('search') ?? '',
      type: isRepoType(sp.get('type')) ? (sp.get('type') as RepoType) : '',
      limit: Number.isInteger(limit) && limit >= 1 ? limit : null,
    };
  }, [sp]);
  return [params, update];
}
