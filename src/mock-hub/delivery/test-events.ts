import type { RepoId } from '../../hub/schemas/repo.ts';
import { REPO_TYPES } from '../../hub/schemas/repo.ts';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import type { TestEventSample } from '../../hub/schemas/webhook-log.ts';
import type { MockEvent } from './event-schema.ts';

const TITLE = 'Test event from Hub Console';
const discussion = { num: 1, title: TITLE, isPullRequest: false, status: 'open' as const };

/** The event each sample stands for, about `repo`. */
export function testEvent(sample: TestEventSample, repo: RepoId): MockEvent {
  switch (sample) {
    case 'repo-create':
      return { repo, scope: 'repo', action: 'create' };
    case 'repo-update':
      return { repo, scope: 'repo.content', action: 'update' };
    case 'repo-config':
      return { repo, scope: 'repo.config', action: 'update' };
    case 'discussion-create':
      return { repo, scope: 'discussion', action: 'create', discussion };
    case 'discussion-comment':
      return {
        repo,
        scope: 'discussion.comment',
        action: 'create',
        discussion: { ...discussion, comment: { content: 'A test comment sent from Hub Console.', hidden: false } },
      };
    case 'pull-request-create':
      return { repo, scope: 'discussion', action: 'create', discussion: { ...discussion, isPullRequest: true } };
  }
}

const isRepoType = (t: string): t is RepoId['type'] => (REPO_TYPES as readonly string[]).includes(t);

/**
 * The repo a test event is about: the first repo the webhook watches, else a repo of the first
 * user or org it watches (one the hub knows when there is one).
 */
export function testEventRepo(webhook: Webhook, reposOf: (owner: string) => RepoId[]): RepoId {
  const repo = webhook.watched.find((w) => isRepoType(w.type));
  if (repo) return { type: repo.type as RepoId['type'], name: repo.name };
  const owner = webhook.watched[0]?.name ?? 'example';
  return reposOf(owner)[0] ?? { type: 'model', name: `${owner}/example-model` };
}
