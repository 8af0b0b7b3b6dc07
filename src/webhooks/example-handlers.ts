import type { ReceivedWebhookPayload } from './payload-schema.ts';
import type { WebhooksServer } from './server.ts';

/** Registered by its function name: `POST /webhooks/on_repo_update`. */
export function on_repo_update(payload: ReceivedWebhookPayload) {
  // Newer hubs may send actions and scopes this handler does not know; they are simply not updates.
  const updated = payload.event.action === 'update' && (payload.event.scope ?? '').startsWith('repo');
  return { received: true, updated, repo: payload.repo.name };
}

/** Registered under the explicit name `echo`. */
export function echoPayload(payload: ReceivedWebhookPayload) {
  const { action, scope } = payload.event;
  return { action, scope, repo: payload.repo };
}

export function addExampleHandlers(server: WebhooksServer): string[] {
  return [server.add(on_repo_update), server.add(echoPayload, 'echo')];
}
