import type { RepoId } from '../../hub/schemas/repo.ts';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import { eventFamily } from './event-schema.ts';

/** The watched item covers the repo itself, or its owner (user or org) and so all of its repos. */
export function watchCovers(item: Webhook['watched'][number], repo: RepoId): boolean {
  if (item.type === 'user' || item.type === 'org') return repo.name.split('/')[0] === item.name;
  return item.type === repo.type && item.name === repo.name;
}

/** Enabled webhooks that watch the repo and subscribe to the event's family. */
export function matchingWebhooks(webhooks: readonly Webhook[], repo: RepoId, scope: string): Webhook[] {
  const family = eventFamily(scope);
  return webhooks.filter(
    (w) => w.disabled === false && w.domains.includes(family) && w.watched.some((item) => watchCovers(item, repo)),
  );
}
