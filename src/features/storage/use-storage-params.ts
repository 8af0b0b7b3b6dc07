import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
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
  const [sp, setSp] = useSearchParams();
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
  const update = useCallback(
    (patch: Partial<StorageParams>) =>
      setSp(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v === '' || v === null || v === undefined) next.delete(k);
            else next.set(k, String(v));
          }
          return next;
        },
        { replace: true },
      ),
    [setSp],
  );
  return [params, update];
}
