import type { Notification, RepoType } from '../../hub/schemas/index.ts';
import { notificationDiscussionId } from '../../hub/schemas/index.ts';

/** What a row shows, whatever the variant: hub text stays plain strings, rendered as text. */
export interface NotificationView {
  id: string;
  kind: 'Paper' | 'Pull request' | 'Discussion' | 'Post' | 'Community blog';
  title: string;
  context: string;
  status?: 'draft' | 'open' | 'closed' | 'merged';
  path: string;
  participants: { _id: string; avatar: string; user: string }[];
}

const repoPrefix: Record<RepoType, string> = { model: '', dataset: 'datasets/', space: 'spaces/', bucket: 'buckets/', kernel: 'kernels/' };

export function viewOf(n: Notification): NotificationView {
  const id = notificationDiscussionId(n);
  switch (n.type) {
    case 'paper':
      return { id, kind: 'Paper', title: n.paper.title, context: 'Paper discussion', path: `/papers/${n.paper._id}`, participants: n.paperDiscussion.participating };
    case 'repo':
      return {
        id,
        kind: n.discussion.isPullRequest ? 'Pull request' : 'Discussion',
        title: n.discussion.title,
        context: `${n.repo.type} ${n.repo.name} #${n.discussion.num}`,
        status: n.discussion.status,
        path: `/${repoPrefix[n.repo.type]}${n.repo.name}/discussions/${n.discussion.num}`,
        participants: n.discussion.participating,
      };
    case 'post':
      return { id, kind: 'Post', title: n.post.title, context: `Post by ${n.post.authorName}`, path: `/posts/${encodeURIComponent(n.post.authorName)}/${encodeURIComponent(n.post.slug)}`, participants: n.post.participating };
    case 'community_blog':
      return {
        id,
        kind: 'Community blog',
        title: n.blog.title,
        context: `${n.blog.canonical ? 'Canonical article' : 'Community article'}${n.authorName ? ` by ${n.authorName}` : ''}`,
        path: `/blog/community/${encodeURIComponent(n.blog.slug)}`,
        participants: n.blog.participating,
      };
  }
}
