import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { NotificationFilters } from '../../hub/schemas/index.ts';
import { readFilters, writeFilters } from './inbox-filters-url.ts';

type Filters = Omit<NotificationFilters, 'p'>;

/** The inbox filter state lives in the URL: bookmarkable and reload-safe. */
export function useInboxFilters() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readFilters(params), [params]);
  const setFilters = useCallback((next: Filters) => setParams(writeFilters(next, 0)), [setParams]);
  const setPage = useCallback(
    (page: number) => setParams(writeFilters(state.filters, page)),
    [setParams, state.filters],
  );
  return { ...state, setFilters, setPage };
}
