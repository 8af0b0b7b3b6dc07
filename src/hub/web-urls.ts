import { repoWebPath, type Notification, type RepoType } from './schemas/index.ts';

// Pages on the hub's website (not its API), built from the configured hub base URL so the same
// links work against the real hub. Shapes, as huggingface.co serves them:
//   repo discussion   /<repo path>/discussions/<num>           huggingface_hub `Discussion.url`
//   one comment       .../discussions/<num>#<comment id>        the hub's webhook payload `comment.url.web`
//   post              /posts/<author>/<slug>                    e.g. huggingface.co/posts/osanseviero/691474247332404
//   article           /blog/<author>/<slug> (community), /blog/<slug> (the hub's own blog)
//   paper             /papers/<paper id>

const seg = encodeURIComponent;

/** `baseUrl` (any trailing slash dropped) followed by an absolute path. */
export function hubWebUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

export function repoWebUrl(baseUrl: string, repo: { type: RepoType; name: string }): string {
  return hubWebUrl(baseUrl, repoWebPath(repo.type, repo.name));
}

/**
 * Where a notification leads: the discussion, paper, post or article, and for repo discussions the
 * exact comment when the notification names one (`discussionEventId`).
 */
export function notificationWebPath(n: Notification): string {
  switch (n.type) {
    case 'repo': {
      const comment = n.discussionEventId ? `#${seg(n.discussionEventId)}` : '';
      return `${repoWebPath(n.repo.type, n.repo.name)}/discussions/${n.discussion.num}${comment}`;
    }
    case 'paper':
      return `/papers/${seg(n.paper._id)}`;
    case 'post':
      return `/posts/${seg(n.post.authorName)}/${seg(n.post.slug)}`;
    case 'community_blog':
      // A community article lives under its author; without one, only the blog's own path is known.
      return !n.blog.canonical && n.authorName
        ? `/blog/${seg(n.authorName)}/${seg(n.blog.slug)}`
        : `/blog/${seg(n.blog.slug)}`;
  }
}
