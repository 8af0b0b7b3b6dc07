import { notificationDiscussionId, type NotificationFilters } from '../../hub/schemas/index.ts';
import type { StoredNotification } from '../store/state-schema.ts';

type Filters = Omit<NotificationFilters, 'p'>;

/**
 * The shared notification filters, ANDed. Filters that name a field of one notification type
 * (repoType, repoName, postAuthor, paperId, articleId) keep only notifications of that type.
 * `lastUpdate` keeps notifications updated at or before it, so paging a list stays stable while
 * new notifications arrive. `mention=participating` keeps those where the user participates,
 * `mentions` those where the user was mentioned.
 */
export function matchesFilters(s: StoredNotification, f: Filters, user: string): boolean {
  const n = s.notification;
  if (f.readStatus === 'unread' && n.read) return false;
  if (f.repoType !== undefined && (n.type !== 'repo' || n.repo.type !== f.repoType)) return false;
  if (f.repoName !== undefined && (n.type !== 'repo' || n.repo.name !== f.repoName)) return false;
  if (f.postAuthor !== undefined) {
    const author = n.type === 'post' ? n.post.authorName : n.type === 'community_blog' ? n.authorName : undefined;
    if (author !== f.postAuthor) return false;
  }
  if (
    f.paperId !== undefined &&
    (n.type !== 'paper' || (n.paperDiscussion.paperId !== f.paperId && n.paper._id !== f.paperId))
  )
    return false;
  if (
    f.articleId !== undefined &&
    (n.type !== 'community_blog' || (n.blog.id !== f.articleId && n.blog.slug !== f.articleId))
  )
    return false;
  if (f.mention === 'mentions' && !s.mentioned) return false;
  if (f.mention === 'participating' && !participants(s).includes(user)) return false;
  if (f.lastUpdate !== undefined && Date.parse(n.updatedAt) > Date.parse(f.lastUpdate)) return false;
  return true;
}

function participants(s: StoredNotification): string[] {
  const n = s.notification;
  const list =
    n.type === 'repo'
      ? n.discussion.participating
      : n.type === 'paper'
        ? n.paperDiscussion.participating
        : n.type === 'post'
          ? n.post.participating
          : n.blog.participating;
  return list.map((p) => p.user);
}

/** Newest first (stored timestamps all come from toISOString, so they compare as strings). */
export function sortNewestFirst(list: StoredNotification[]): StoredNotification[] {
  return [...list].sort((a, b) =>
    a.notification.updatedAt < b.notification.updatedAt
      ? 1
      : a.notification.updatedAt > b.notification.updatedAt
        ? -1
        : 0,
  );
}

/**
 * Which notifications a bulk request targets: those whose discussion id is listed, and with
 * applyToAll also every one matching the filters (the spec: "listed, or applyToAll and
 * matching"). Listed ids without a notification select nothing.
 */
export function selectTargets(
  list: StoredNotification[],
  opts: { applyToAll: boolean; discussionIds: string[]; filters: Filters; user: string },
): StoredNotification[] {
  const wanted = new Set(opts.discussionIds);
  return list.filter(
    (s) =>
      wanted.has(notificationDiscussionId(s.notification)) ||
      (opts.applyToAll && matchesFilters(s, opts.filters, opts.user)),
  );
}
