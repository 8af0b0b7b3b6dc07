import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { Notification, NotificationList } from '../../hub/schemas/index.ts';
import type { BulkTarget } from './bulk-target.ts';
import { idIn, withoutRows, withReadState } from './optimistic-lists.ts';

export type BulkAction = { type: 'read' | 'unread' | 'delete'; target: BulkTarget };

/** Filters of a cached list (key: [...notifications.all, 'list', filters]) without the page. */
function filterSignature(filters: unknown): string {
  const entries = Object.entries((filters ?? {}) as Record<string, unknown>).filter(
    ([k, v]) => k !== 'p' && v !== undefined,
  );
  return JSON.stringify(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** By id: any cached list may hold the row. "All matching": every page of those same filters. */
function touches(key: QueryKey, target: BulkTarget): boolean {
  return (
    target.kind === 'ids' ||
    filterSignature(key[hubKeys.notifications.all.length + 1]) === filterSignature(target.filters)
  );
}

/**
 * Mark read / unread / delete, applied to the cache at once and rolled back if the hub refuses.
 * Every notification list is refetched afterwards, so counts end up as the hub has them.
 */
export function useBulkActions() {
  const client = useHubClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ type, target }: BulkAction) => {
      const query = target.kind === 'all' ? { ...target.filters, applyToAll: true } : {};
      if (type === 'delete') {
        return client.deleteNotifications(
          { discussionIds: target.kind === 'ids' ? target.ids : target.visibleIds },
          query,
        );
      }
      return client.markNotifications(
        { discussionIds: target.kind === 'ids' ? target.ids : [], read: type === 'read' },
        query,
      );
    },
    onMutate: async ({ type, target }) => {
      await queryClient.cancelQueries({ queryKey: hubKeys.notifications.all });
      const snapshot = queryClient.getQueriesData<NotificationList>({ queryKey: hubKeys.notifications.all });
      const hit: (n: Notification) => boolean = target.kind === 'ids' ? idIn(target.ids) : () => true;
      for (const [key, data] of snapshot) {
        if (!data || !touches(key, target)) continue;
        queryClient.setQueryData<NotificationList>(
          key,
          type === 'delete' ? withoutRows(data, hit) : withReadState(data, hit, type === 'read'),
        );
      }
      return { snapshot };
    },
    onError: (_error, _action, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: hubKeys.notifications.all }),
  });
}
