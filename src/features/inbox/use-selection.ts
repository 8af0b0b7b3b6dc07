import { useCallback, useState } from 'react';

/**
 * Picked rows, or "everything matching the filters". The caller keys the owner by the URL, so
 * changing filters or page starts from an empty selection.
 */
export function useSelection() {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const toggle = useCallback((id: string) => {
    setAllMatching(false);
    setIds((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const setPage = useCallback((pageIds: string[], on: boolean) => {
    setAllMatching(false);
    setIds(on ? new Set(pageIds) : new Set());
  }, []);
  const clear = useCallback(() => {
    setAllMatching(false);
    setIds(new Set());
  }, []);
  return { ids, allMatching, toggle, setPage, selectAllMatching: () => setAllMatching(true), clear };
}
export type Selection = ReturnType<typeof useSelection>;
