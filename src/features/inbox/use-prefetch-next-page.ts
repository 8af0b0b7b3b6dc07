import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { notificationsQuery } from '../../hub/queries.ts';
import type { NotificationFilters } from '../../hub/schemas/index.ts';

/** Paging through an inbox is the common case: fetch the next page while this one is read. */
export function usePrefetchNextPage(filters: Omit<NotificationFilters, 'p'>, page: number, hasNext: boolean) {
  const client = useHubClient();
  const queryClient = useQueryClient();
  const key = JSON.stringify(filters);
  useEffect(() => {
    if (!hasNext) return;
    void queryClient.prefetchQuery(notificationsQuery(client, { ...(JSON.parse(key) as typeof filters), p: page + 1 }));
  }, [client, queryClient, key, page, hasNext]);
}
