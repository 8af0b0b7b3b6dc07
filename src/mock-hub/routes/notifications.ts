import {
  MarkAsReadBody,
  NOTIFICATIONS_PAGE_SIZE,
  NotificationBulkQuery,
  NotificationBulkResult,
  NotificationDeleteBody,
  NotificationFilters,
  NotificationList,
} from '../../hub/schemas/index.ts';
import { badRequest } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import type { HubContext } from '../hub-context.ts';
import { matchesFilters, selectTargets, sortNewestFirst } from '../notifications/filter-notifications.ts';

const tag = 'notifications';

/**
 * count.all: every notification of the user; count.unread: unread ones among all (the badge);
 * count.view: those matching the request's filters (readStatus included), i.e. the total the
 * pages of this view add up to. `start` is the index of the first item of page `p`.
 */
const list = defineRoute({
  method: 'get',
  path: '/api/notifications',
  tag,
  auth: 'user',
  summary: 'List notifications, newest first, 20 per page',
  query: NotificationFilters,
  memo: true,
  responseHeaders: { Link: '`<...?p=N+1>; rel="next"` while more pages follow' },
  response: NotificationList,
  handler: ({ query, auth, hub, setHeader, url }) => {
    const all = hub.store.state.notifications[auth.user.name] ?? [];
    const { p = 0, ...filters } = query;
    const view = sortNewestFirst(all.filter((s) => matchesFilters(s, filters, auth.user.name)));
    const start = p * NOTIFICATIONS_PAGE_SIZE;
    const page = view.slice(start, start + NOTIFICATIONS_PAGE_SIZE);
    if (start + NOTIFICATIONS_PAGE_SIZE < view.length) {
      const next = new URL(url);
      next.searchParams.set('p', String(p + 1));
      setHeader('Link', `<${next.pathname}${next.search}>; rel="next"`);
    }
    return {
      notifications: page.map((s) => s.notification),
      count: { view: view.length, unread: all.filter((s) => !s.notification.read).length, all: all.length },
      start,
    };
  },
});

/**
 * The bulk calls' targets: the listed ids, and with applyToAll also every notification matching
 * the filters (the spec's "listed, or applyToAll and matching"). Ids the user has no notification
 * for are ignored, as the real hub most likely does (docs/decisions.md): the rest still changes.
 */
function bulkTargets(
  hub: HubContext,
  user: string,
  query: { applyToAll?: boolean; p?: number } & Omit<NotificationFilters, 'p'>,
  discussionIds: string[],
) {
  const all = hub.store.state.notifications[user] ?? [];
  const { applyToAll = false, p: _p, ...filters } = query;
  return { all, applyToAll, targets: selectTargets(all, { applyToAll, filters, discussionIds, user }) };
}

const remove = defineRoute({
  method: 'delete',
  path: '/api/notifications',
  tag,
  auth: 'user',
  summary: 'Delete the notifications of discussionIds, and with applyToAll=true all matching the filters',
  description:
    'Unknown discussion ids are ignored. The body (at least one id24) may be omitted only with applyToAll=true.',
  query: NotificationBulkQuery,
  body: NotificationDeleteBody.optional(),
  response: NotificationBulkResult,
  handler: ({ query, body, auth, hub }) => {
    const { all, applyToAll, targets } = bulkTargets(hub, auth.user.name, query, body?.discussionIds ?? []);
    if (!applyToAll && !body)
      throw badRequest('body.discussionIds: list at least one discussion id, or set applyToAll=true');
    const gone = new Set(targets);
    hub.store.state.notifications[auth.user.name] = all.filter((s) => !gone.has(s));
    return { count: targets.length };
  },
});

const markAsRead = defineRoute({
  method: 'post',
  path: '/api/notifications/mark-as-read',
  tag,
  auth: 'user',
  summary: 'Mark notifications read (read=true) or unread (read=false)',
  description:
    'The listed discussionIds (any string: post and paper discussion ids are not id24), and with applyToAll=true every notification matching the filters. ' +
    'Unknown ids are ignored; the spec defaults (no ids, no applyToAll) change nothing. `count` is how many changed state.',
  query: NotificationBulkQuery,
  body: MarkAsReadBody.optional(),
  response: NotificationBulkResult,
  handler: ({ query, body, auth, hub }) => {
    const read = body?.read ?? true;
    const { targets } = bulkTargets(hub, auth.user.name, query, body?.discussionIds ?? []);
    let changed = 0;
    for (const s of targets) {
      if (s.notification.read !== read) changed++;
      s.notification.read = read;
    }
    return { count: changed };
  },
});

export const notificationRoutes = [list, remove, markAsRead];
