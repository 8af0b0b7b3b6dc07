import type { Job } from '../../hub/schemas/job.ts';
import type { RepoId } from '../../hub/schemas/repo.ts';
import type { WebhookDelivery } from '../../hub/schemas/webhook-log.ts';
import type { WebhookJobRequest } from '../../hub/schemas/webhook-job.ts';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import type { Principal } from './job-runner.ts';

export interface HostedWebhook {
  owner: string;
  webhook: Webhook;
  /** The job part of the create request, for fields the response shape drops (arch, attempts, volumes, expose, ssh). */
  jobRequest?: WebhookJobRequest;
}

/** What the delivery engine needs from the mock hub's store; `store-host.ts` implements it. */
export interface DeliveryHost {
  /** Origin the repo URLs in payloads point at. */
  baseUrl(): string;
  webhooks(): HostedWebhook[];
  webhook(id: string): HostedWebhook | undefined;
  patchWebhook(id: string, patch: Pick<Partial<Webhook>, 'disabled' | 'lastTriggerAt'>): void;
  /** Adds a finished delivery to the webhook's log (newest first, see `insertLogEntry`). */
  appendLog(webhookId: string, entry: WebhookDelivery): void;
  logs(webhookId: string): WebhookDelivery[];
  /** Facts about a repo the store knows; undefined for a repo it does not (the event is still delivered). */
  repo(repo: RepoId): { private: boolean } | undefined;
  /** Whether `user` may see the repo (a private repo is seen by its owner and the owner org's members). */
  canSee(user: string, repo: RepoId): boolean;
  principal(name: string): Principal;
  job(id: string): Job | undefined;
  /** Inserts or replaces the job under the owner's namespace. */
  saveJob(namespace: string, job: Job): void;
}
