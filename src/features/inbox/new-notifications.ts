import { notificationDiscussionId, type Notification, type NotificationList } from '../../hub/schemas/index.ts';

const time = (n: Notification) => Date.parse(n.updatedAt);
const key = (n: Notification) => `${notificationDiscussionId(n)}@${time(n)}`;

/**
 * Notifications of `fresh` that came after everything `shown` has: new ones, and old threads with
 * new activity (same id, later update). Read-state changes are not news.
 */
export function newSince(shown: readonly Notification[], fresh: readonly Notification[]): Notification[] {
  const seen = new Set(shown.map(key));
  const newest = Math.max(-Infinity, ...shown.map(time));
  return fresh.filter((n) => !seen.has(key(n)) && time(n) > newest);
}

/**
 * How many new notifications the first page `fresh` has over `shown` (both first pages of one
 * view). A page made only of new ones may have more behind it: the view count says how many.
 */
export function countNew(shown: NotificationList, fresh: NotificationList): number {
  const listed = newSince(shown.notifications, fresh.notifications).length;
  if (listed > 0 && listed === fresh.notifications.length) return Math.max(listed, fresh.count.view - shown.count.view);
  return listed;
}
