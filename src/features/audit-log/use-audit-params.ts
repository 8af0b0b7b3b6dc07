import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AuditLogQuery, formatAuditQuery, parseAuditQuery, type AuditQueryTerm } from '../../hub/schemas/index.ts';
import type { SortDir, SortKey } from './audit-view.ts';

const SORT_KEYS: SortKey[] = ['createdAt', 'type', 'author', 'ip'];

export interface AuditParams {
  q: string;
  /** Message when `q` in the URL is not a valid filter (then nothing is sent). */
  qError: string | null;
  terms: AuditQueryTerm[];
  facet: string | null;
  sort: SortKey;
  dir: SortDir;
}

export type AuditParamsUpdate = (patch: {
  terms?: AuditQueryTerm[];
  facet?: string | null;
  sort?: SortKey;
  dir?: SortDir;
}) => void;

/** Filter (`q`, sent to the hub), facet and sort (local) live in the URL. */
export function useAuditParams(): [AuditParams, AuditParamsUpdate] {
  const [sp, setSp] = useSearchParams();
  const params = useMemo<AuditParams>(() => {
    const q = sp.get('q') ?? '';
    const checked = AuditLogQuery.safeParse({ q });
    const sort = sp.get('sort') as SortKey;
    return {
      q,
      qError: checked.success ? null : (checked.error.issues[0]?.message ?? 'invalid filter'),
      terms: checked.success ? parseAuditQuery(q) : [],
      facet: sp.get('facet') || null,
      sort: SORT_KEYS.includes(sort) ? sort : 'createdAt',
      dir: sp.get('dir') === 'asc' ? 'asc' : 'desc',
    };
  }, [sp]);
  const update = useCallback<AuditParamsUpdate>(
    (patch) =>
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        const put = (k: string, v: string | null | undefined) => (v ? next.set(k, v) : next.delete(k));
        if (patch.terms) {
          put('q', formatAuditQuery(patch.terms));
          next.delete('facet');
        }
        if ('facet' in patch) put('facet', patch.facet);
        if (patch.sort) put('sort', patch.sort === 'createdAt' ? null : patch.sort);
        if (patch.dir) put('dir', patch.dir === 'desc' ? null : patch.dir);
        return next;
      }),
    [setSp],
  );
  return [params, update];
}
