import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoWebPath, type Notification, type RepoType } from './schemas/index.ts';
import { hubWebUrl, notificationWebPath, repoWebUrl } from './web-urls.ts';

const base = { updatedAt: '2026-11-01T12:00:00.000Z', read: false };
const people = { participating: [] };
const repo = (type: RepoType, name: string, eventId?: string): Notification => ({
  type: 'repo',
  ...base,
  ...(eventId ? { discussionEventId: eventId } : {}),
  repo: { type, name },
  discussion: { num: 19, title: 't', status: 'open', id: 'a'.repeat(24), isPullRequest: false, ...people },
});

describe('hub web URLs', () => {
  it('puts repos where the hub serves them: models at the root, other types under their plural', () => {
    expect(repoWebUrl('https://huggingface.co', { type: 'model', name: 'gpt2/gpt2' })).toBe(
      'https://huggingface.co/gpt2/gpt2',
    );
    expect(repoWebUrl('https://huggingface.co/', { type: 'dataset', name: 'allenai/objaverse' })).toBe(
      'https://huggingface.co/datasets/allenai/objaverse',
    );
    expect(repoWebUrl('http://127.0.0.1:4700', { type: 'space', name: 'a/b' })).toBe(
      'http://127.0.0.1:4700/spaces/a/b',
    );
    expect(repoWebPath('bucket', 'a/b')).toBe('/buckets/a/b');
    expect(repoWebPath('kernel', 'a/b')).toBe('/kernels/a/b');
  });

  it('links a repo notification to its discussion, and to the exact comment when it names one', () => {
    // The hub's own webhook payload: comment.url.web = .../datasets/allenai/objaverse/discussions/63#66f1a1092eb1ea2422555d25
    expect(
      hubWebUrl(
        'https://huggingface.co',
        notificationWebPath(repo('dataset', 'allenai/objaverse', '66f1a1092eb1ea2422555d25')),
      ),
    ).toBe('https://huggingface.co/datasets/allenai/objaverse/discussions/19#66f1a1092eb1ea2422555d25');
    expect(notificationWebPath(repo('model', 'gpt2/gpt2'))).toBe('/gpt2/gpt2/discussions/19');
  });

  it('links papers, posts and articles to their pages', () => {
    const paper: Notification = {
      type: 'paper',
      ...base,
      discussionEventId: 'e'.repeat(24),
      paper: { _id: 'b'.repeat(24), title: 'p' },
      paperDiscussion: { id: 'c'.repeat(24), paperId: 'b'.repeat(24), ...people },
    };
    expect(notificationWebPath(paper)).toBe(`/papers/${'b'.repeat(24)}`);
    const post: Notification = {
      type: 'post',
      ...base,
      post: { id: 'd'.repeat(24), slug: '691474247332404', authorName: 'osanseviero', title: 'x', ...people },
    };
    expect(notificationWebPath(post)).toBe('/posts/osanseviero/691474247332404');
    const article = (canonical: boolean, authorName?: string): Notification => ({
      type: 'community_blog',
      ...base,
      blog: { id: 'e'.repeat(24), slug: 'attention-sinks', title: 'x', canonical, ...people },
      ...(authorName ? { authorName } : {}),
    });
    expect(notificationWebPath(article(false, 'tomaarsen'))).toBe('/blog/tomaarsen/attention-sinks');
    expect(notificationWebPath(article(true, 'tomaarsen'))).toBe('/blog/attention-sinks');
    expect(notificationWebPath(article(false))).toBe('/blog/attention-sinks');
  });

  it('never lets a name leave its path segment: every link stays on the hub, under its section', () => {
    // "." and ".." are dot-segments to every URL parser, encoded or not; no hub name is one.
    const name = fc.string().filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(name, name, name, (author, slug, name) => {
        const post = notificationWebPath({
          type: 'post',
          ...base,
          post: { id: 'x', slug, authorName: author, title: '', ...people },
        });
        const url = new URL(hubWebUrl('https://hub.example', post));
        expect(url.origin).toBe('https://hub.example');
        expect(url.pathname.split('/').slice(0, 2)).toEqual(['', 'posts']);
        expect(url.pathname.split('/')).toHaveLength(4);
        expect(url.hash).toBe('');
        const repoUrl = new URL(repoWebUrl('https://hub.example', { type: 'dataset', name: `ns/${name}` }));
        expect(repoUrl.origin).toBe('https://hub.example');
        expect(repoUrl.search + repoUrl.hash).toBe('');
      }),
    );
  });
});
