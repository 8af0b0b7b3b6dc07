import { z } from 'zod';
import { Id24, MAX_PAGE, QueryBool, Timestamp, queryInt } from './common.ts';
import { RepoId, RepoType } from './repo.ts';

export const Participant = z.strictObject({ _id: Id24, avatar: z.string(), user: z.string() });
export type Participant = z.infer<typeof Participant>;

const base = {
  updatedAt: Timestamp,
  read: z.boolean(),
  discussionEventId: z.string().optional(),
};

export const DISCUSSION_STATUSES = ['draft', 'open', 'closed', 'merged'] as const;
export const DiscussionStatus = z.enum(DISCUSSION_STATUSES);

export const PaperNotification = z.strictObject({
  type: z.literal('paper'),
  ...base,
  paper: z.strictObject({ _id: Id24, title: z.string() }),
  paperDiscussion: z.strictObject({ id: z.string(), participating: z.array(Participant), paperId: Id24 }),
});

export const RepoNotification = z.strictObject({
  type: z.literal('repo'),
  ...base,
  repo: RepoId,
  discussion: z.strictObject({
    num: z.number(),
    title: z.string(),
    status: DiscussionStatus,
    id: Id24,
    isPullRequest: z.boolean(),
    participating: z.array(Participant),
  }),
});

export const PostNotification = z.strictObject({
  type: z.literal('post'),
  ...base,
  post: z.strictObject({
    id: z.string(),
    slug: z.string(),
    authorName: z.string(),
    title: z.string(),
    participating: z.array(Participant),
  }),
});

export const CommunityBlogNotification = z.strictObject({
  type: z.literal('community_blog'),
  ...base,
  blog: z.strictObject({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    canonical: z.boolean(),
    participating: z.array(Participant),
  }),
  authorName: z.string().optional(),
});

export const Notification = z.discriminatedUnion('type', [
  PaperNotification,
  RepoNotification,
  PostNotification,
  CommunityBlogNotification,
]);
export type Notification = z.infer<typeof Notification>;
export const NOTIFICATION_TYPES = ['paper', 'repo', 'post', 'community_blog'] as const;

export const NotificationCount = z.strictObject({ view: z.number(), unread: z.number(), all: z.number() });

export const NotificationList = z.strictObject({
  notifications: z.array(Notification),
  count: NotificationCount,
  start: z.number(),
});
export type NotificationList = z.infer<typeof NotificationList>;

/** The shared notification query parameters (GET, DELETE and POST mark-as-read). */
export const NotificationFilters = z.strictObject({
  p: queryInt(0, MAX_PAGE).optional(),
  readStatus: z.enum(['all', 'unread']).optional(),
  repoType: RepoType.optional(),
  repoName: z.string().min(1).optional(),
  postAuthor: z.string().min(1).optional(),
  paperId: z.string().min(1).optional(),
  articleId: z.string().min(1).optional(),
  mention: z.enum(['all', 'participating', 'mentions']).optional(),
  lastUpdate: Timestamp.optional(),
});
export type NotificationFilters = z.input<typeof NotificationFilters>;

/** DELETE and mark-as-read also take applyToAll. */
export const NotificationBulkQuery = NotificationFilters.extend({ applyToAll: QueryBool.optional() });
export type NotificationBulkQuery = z.input<typeof NotificationBulkQuery>;

export const NotificationDeleteBody = z.strictObject({ discussionIds: z.array(Id24).min(1) });
export type NotificationDeleteBody = z.infer<typeof NotificationDeleteBody>;

export const MarkAsReadBody = z.strictObject({
  discussionIds: z.array(z.string()).default([]),
  read: z.boolean().default(true),
});
export type MarkAsReadBody = z.input<typeof MarkAsReadBody>;

/** Page size the hub uses for GET /api/notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;

/** Id a notification is addressed by in discussionIds. */
export function notificationDiscussionId(n: Notification): string {
  switch (n.type) {
    case 'paper':
      return n.paperDiscussion.id;
    case 'repo':
      return n.discussion.id;
    case 'post':
      return n.post.id;
    case 'community_blog':
      return n.blog.id;
  }
}

/** Answer of DELETE /api/notifications and POST mark-as-read (spec: not shown; mock sends how many changed). */
export const NotificationBulkResult = z.strictObject({ count: z.number().int() });
export type NotificationBulkResult = z.infer<typeof NotificationBulkResult>;
