import { notificationDiscussionId, type NotificationFilters, type NotificationList } from '../../hub/schemas/index.ts';

/** Undo of "mark all as read" is offered up to this many notifications (25 pages to read first). */
export const UNDO_LIMIT = 500;

type Filters = Omit<NotificationFilters, 'p'>;

/**
 * The ids of the unread notifications matching `filters`, so that "mark all as read" can be undone
 * exactly (only those are marked unread again). null when there are more than `limit`. Pages after
 * the first are pinned with `lastUpdate` (the hub's stable paging) so arrivals do not shift them.
 */
export async function collectUnreadIds(
  list: (query: NotificationFilters) => Promise<NotificationList>,
  filters: Filters,
  limit = UNDO_LIMIT,
): Promise<string[] | null> {
  const query: NotificationFilters = { ...filters, readStatus: 'unread' };
  const ids = new Set<string>();
  for (let p = 0; ; p++) {
    const page = await list({ ...query, p });
    if (page.count.view > limit) return null;
    for (const n of page.notifications) ids.add(notificationDiscussionId(n));
    if (p === 0 && page.notifications[0]) query.lastUpdate = page.notifications[0].updatedAt;
    if (page.notifications.length === 0 || ids.size >= page.count.view) return [...ids];
  }
}
