import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys, liveNotificationsQuery, notificationsQuery } from '../../hub/queries.ts';
import type { NotificationFilters } from '../../hub/schemas/index.ts';
import { countNew } from './new-notifications.ts';

type Filters = Omit<NotificationFilters, 'p'>;

/**
 * Watches the first page of this view (polled, and refetched on focus) against the first page on
 * screen, and counts what is new. `show` puts the new ones on screen: the rows never move by
 * themselves, so nothing jumps under the cursor.
 */
export function useNewNotifications(filters: Filters, page: number, setPage: (p: number) => void) {
  const client = useHubClient();
  const queryClient = useQueryClient();
  const live = useQuery(liveNotificationsQuery(client, filters));
  const firstPageOptions = notificationsQuery(client, { ...filters, p: 0 });
  // Reads the cached first page without fetching it (the list itself fetches it when on page 0).
  const firstPage = useQuery({ ...firstPageOptions, enabled: false });
  const firstPageKey = firstPageOptions.queryKey;

  // Opened on a later page: the first page as it was then is the baseline (on page 0 the list loads it).
  useEffect(() => {
    if (page !== 0 && live.data && queryClient.getQueryData(firstPageKey) === undefined)
      queryClient.setQueryData(firstPageKey, live.data);
  }, [page, live.data, queryClient, firstPageKey]);

  const count = firstPage.data && live.data ? countNew(firstPage.data, live.data) : 0;

  function show() {
    if (!live.data) return;
    // Every other page of the view shifted: refetch those when visited, and show the fresh first page now.
    void queryClient.invalidateQueries({ queryKey: hubKeys.notifications.all, refetchType: 'none' });
    queryClient.setQueryData(firstPageKey, live.data);
    if (page !== 0) setPage(0);
  }
  return { count, show };
}
