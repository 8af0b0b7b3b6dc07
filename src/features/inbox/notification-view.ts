import type { Notification } from '../../hub/schemas/index.ts';
import { notificationDiscussionId } from '../../hub/schemas/index.ts';
import { notificationWebPath } from '../../hub/web-urls.ts';

/** What a row shows, whatever the variant: hub text stays plain strings, rendered as text. */
export interface NotificationView {
  id: string;
  kind: 'Paper' | 'Pull request' | 'Discussion' | 'Post' | 'Community blog';
  title: string;
  context: string;
  status?: 'draft' | 'open' | 'closed' | 'merged';
  /** Where it leads on the hub's website (see hub/web-urls.ts). */
  path: string;
  participants: { _id: string; avatar: string; user: string }[];
}

export function viewOf(n: Notification): NotificationView {
  const id = notificationDiscussionId(n);
  const path = notificationWebPath(n);
  switch (n.type) {
    case 'paper':
      return {
        id,
        kind: 'Paper',
        title: n.paper.title,
        context: 'Paper discussion',
        path,
        participants: n.paperDiscussion.participating,
      };
    case 'repo':
      return {
        id,
        kind: n.discussion.isPullRequest ? 'Pull request' : 'Discussion',
        title: n.discussion.title,
        context: `${n.repo.type} ${n.repo.name} #${n.discussion.num}`,
        status: n.discussion.status,
        path,
        participants: n.discussion.participating,
      };
    case 'post':
      return {
        id,
        kind: 'Post',
        title: n.post.title,
        context: `Post by ${n.post.authorName}`,
        path,
        participants: n.post.participating,
      };
    case 'community_blog':
      return {
        id,
        kind: 'Community blog',
        title: n.blog.title,
        context: `${n.blog.canonical ? 'Canonical article' : 'Community article'}${n.authorName ? ` by ${n.authorName}` : ''}`,
        path,
        participants: n.blog.participating,
      };
  }
}
