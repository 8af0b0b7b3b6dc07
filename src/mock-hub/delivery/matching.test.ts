import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import { eventFamily } from './event-schema.ts';
import { matchingWebhooks, watchCovers } from './matching.ts';

const wh = (id: string, fields: Partial<Webhook>): Webhook => ({
  id,
  disabled: false,
  watched: [],
  domains: ['repo'],
  ...fields,
});
const repo = { type: 'model' as const, name: 'acme/vision' };

describe('watchCovers', () => {
  it('covers the repo itself, and every repo of a watched user or org', () => {
    expect(watchCovers({ type: 'model', name: 'acme/vision' }, repo)).toBe(true);
    expect(watchCovers({ type: 'org', name: 'acme' }, repo)).toBe(true);
    expect(watchCovers({ type: 'user', name: 'acme' }, repo)).toBe(true);
  });

  it('does not cover another repo, the same name of another type, or another owner', () => {
    expect(watchCovers({ type: 'model', name: 'acme/other' }, repo)).toBe(false);
    expect(watchCovers({ type: 'dataset', name: 'acme/vision' }, repo)).toBe(false);
    expect(watchCovers({ type: 'org', name: 'acm' }, repo)).toBe(false);
    expect(watchCovers({ type: 'user', name: 'bob' }, repo)).toBe(false);
  });
});

describe('matchingWebhooks', () => {
  const hooks = [
    wh('repo-watch', { watched: [{ type: 'model', name: 'acme/vision' }], domains: ['repo'] }),
    wh('org-watch', { watched: [{ type: 'org', name: 'acme' }], domains: ['repo', 'discussion'] }),
    wh('discussion-only', { watched: [{ type: 'org', name: 'acme' }], domains: ['discussion'] }),
    wh('disabled', { watched: [{ type: 'org', name: 'acme' }], domains: ['repo'], disabled: true }),
    wh('suspended', {
      watched: [{ type: 'org', name: 'acme' }],
      domains: ['repo'],
      disabled: 'suspended-after-failure',
    }),
    wh('elsewhere', { watched: [{ type: 'user', name: 'bob' }], domains: ['repo', 'discussion'] }),
  ];

  it('selects enabled webhooks watching the repo whose domains include the family', () => {
    expect(matchingWebhooks(hooks, repo, 'repo.content').map((w) => w.id)).toEqual(['repo-watch', 'org-watch']);
    expect(matchingWebhooks(hooks, repo, 'discussion.comment').map((w) => w.id)).toEqual([
      'org-watch',
      'discussion-only',
    ]);
    expect(matchingWebhooks(hooks, { type: 'model', name: 'carol/x' }, 'repo')).toEqual([]);
  });

  it('derives the family from the scope prefix', () => {
    expect(eventFamily('repo')).toBe('repo');
    expect(eventFamily('repo.config')).toBe('repo');
    expect(eventFamily('discussion')).toBe('discussion');
    expect(eventFamily('discussion.comment')).toBe('discussion');
  });
});
