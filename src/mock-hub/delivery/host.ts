import type { Job } from '../../hub/schemas/job.ts';
import type { RepoId } from '../../hub/schemas/repo.ts';
import type { WebhookLogEntry } from '../../hub/schemas/webhook-log.ts';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import type { Principal } from './job-runner.ts';

/** What the delivery engine needs from the mock hub's store; `store-host.ts` implements it. */
export interface DeliveryHost {
  /** Origin the repo URLs in payloads point at. */
  baseUrl(): string;
  webhooks(): { owner: string; webhook: Webhook }[];
  webhook(id: string): { owner: string; webhook: Webhook } | undefined;
  patchWebhook(id: string, patch: Pick<Partial<Webhook>, 'disabled' | 'lastTriggerAt'>): void;
  /** Adds a finished delivery to the webhook's log (newest first, see `insertLogEntry`). */
  appendLog(webhookId: string, entry: WebhookLogEntry): void;
  logs(webhookId: string): WebhookLogEntry[];
  /** Facts about a repo the store knows; undefined for a repo it does not (the event is still delivered). */
  repo(repo: RepoId): { private: boolean } | undefined;
  principal(name: string): Principal;
  job(id: string): Job | undefined;
  /** Inserts or replaces the job under the owner's namespace. */
  saveJob(namespace: string, job: Job): void;
}
