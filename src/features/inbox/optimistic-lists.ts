import type { Notification, NotificationList } from '../../hub/schemas/index.ts';
import { notificationDiscussionId } from '../../hub/schemas/index.ts';

/** Pure cache edits for the optimistic updates; `hit` says which rows the action touches. */
export function withReadState(
  list: NotificationList,
  hit: (n: Notification) => boolean,
  read: boolean,
): NotificationList {
  let changed = 0;
  const notifications = list.notifications.map((n) => {
    if (!hit(n) || n.read === read) return n;
    changed++;
    return { ...n, read };
  });
  if (changed === 0) return list;
  const unread = Math.max(0, list.count.unread + (read ? -changed : changed));
  return { ...list, notifications, count: { ...list.count, unread } };
}

export function withoutRows(list: NotificationList, hit: (n: Notification) => boolean): NotificationList {
  const removed = list.notifications.filter(hit);
  if (removed.length === 0) return list;
  const removedUnread = removed.filter((n) => !n.read).length;
  return {
    ...list,
    notifications: list.notifications.filter((n) => !hit(n)),
    count: {
      view: Math.max(0, list.count.view - removed.length),
      unread: Math.max(0, list.count.unread - removedUnread),
      all: Math.max(0, list.count.all - removed.length),
    },
  };
}

export function idIn(ids: readonly string[]): (n: Notification) => boolean {
  const set = new Set(ids);
  return (n) => set.has(notificationDiscussionId(n));
}
