import { repoWebPath, type RepoType } from '../../hub/schemas/repo.ts';
import { webhookPayloadSchema, type WebhookPayload } from '../../webhooks/payload-schema.ts';
import type { MockEvent } from './event-schema.ts';
import { stableId24 } from './ids.ts';

/** What the payload says about a repo beyond its type and name. */
export interface RepoFacts {
  id: string;
  private: boolean;
  ownerId: string;
  /** Who made the event happen: author of a discussion or comment. */
  actorId: string;
  headSha: string;
  /** Set for pushes: the sha before the push. */
  previousSha?: string;
}

export function repoUrls(baseUrl: string, type: RepoType, name: string) {
  return { web: `${baseUrl}${repoWebPath(type, name)}`, api: `${baseUrl}/api/${type}s/${name}` };
}

/** The payload the hub sends for `event` to webhook `webhookId`; throws if it would not match the schema. */
export function buildPayload(event: MockEvent, repo: RepoFacts, webhookId: string, baseUrl: string): WebhookPayload {
  const url = repoUrls(baseUrl, event.repo.type, event.repo.name);
  const payload: WebhookPayload = {
    event: { action: event.action, scope: event.scope },
    repo: {
      type: event.repo.type,
      name: event.repo.name,
      id: repo.id,
      private: repo.private,
      headSha: repo.headSha,
      url,
      owner: { id: repo.ownerId },
    },
    webhook: { id: webhookId, version: 3 },
  };
  const d = event.discussion;
  if (d) {
    const discussionId = stableId24(`discussion:${event.repo.type}/${event.repo.name}#${d.num}`);
    const discussionUrl = { web: `${url.web}/discussions/${d.num}`, api: `${url.api}/discussions/${d.num}` };
    payload.discussion = {
      id: discussionId,
      num: d.num,
      author: { id: repo.actorId },
      url: discussionUrl,
      title: d.title,
      isPullRequest: d.isPullRequest,
      status: d.status,
      ...(d.isPullRequest ? { changes: { base: 'refs/heads/main' } } : {}),
    };
    if (event.scope === 'discussion.comment' && d.comment) {
      const commentId = stableId24(`comment:${discussionId}:${d.comment.content}`);
      payload.comment = {
        id: commentId,
        author: { id: repo.actorId },
        hidden: d.comment.hidden,
        content: d.comment.content,
        url: { web: `${discussionUrl.web}#${commentId}` },
      };
    }
  }
  if (event.scope === 'repo.content') {
    payload.updatedRefs = [{ ref: 'refs/heads/main', oldSha: repo.previousSha ?? null, newSha: repo.headSha }];
  }
  if (event.scope === 'repo.config') payload.updatedConfig = { private: repo.private };
  // What leaves the mock hub must be exactly the published payload, nothing more.
  return webhookPayloadSchema.parse(payload);
}
