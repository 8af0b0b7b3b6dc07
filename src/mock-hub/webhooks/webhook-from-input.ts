import type { z } from 'zod';
import type { Webhook, WebhookInput, WebhookJob, WebhookJobRequest } from '../../hub/schemas/index.ts';
import { findOrg, findUser } from '../seed/users.ts';
import type { StoredWebhook } from '../store/state-schema.ts';

type Input = z.output<typeof WebhookInput>;
type JobRequest = z.output<typeof WebhookJobRequest>;

/** The response shape of a job: secret names only. */
export function jobResponse(job: JobRequest): WebhookJob {
  return {
    ...(job.dockerImage !== undefined ? { dockerImage: job.dockerImage } : {}),
    ...(job.spaceId !== undefined ? { spaceId: job.spaceId } : {}),
    environment: job.environment,
    ...(job.arguments ? { arguments: job.arguments } : {}),
    ...(job.command ? { command: job.command } : {}),
    flavor: job.flavor,
    timeoutSeconds: job.timeoutSeconds,
    ...(job.labels ? { labels: job.labels } : {}),
    ...(job.secrets ? { secrets: Object.keys(job.secrets) } : {}),
  };
}

/** Builds the stored webhook; keeps id, state and lastTriggerAt of `previous` on update. */
export function webhookFromInput(id: string, owner: string, input: Input, previous?: Webhook): StoredWebhook {
  const watched = input.watched.map((w) => {
    const avatar =
      w.type === 'user' ? findUser(w.name)?.avatarUrl : w.type === 'org' ? findOrg(w.name)?.avatarUrl : undefined;
    return { ...w, ...(avatar ? { avatarUrl: avatar } : {}) };
  });
  const webhook: Webhook = {
    id,
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.job ? { job: jobResponse(input.job) } : {}),
    ...(input.jobSourceId !== undefined ? { jobSourceId: input.jobSourceId } : {}),
    disabled: previous?.disabled ?? false,
    watched,
    // `secret: ""` removes the secret (see docs/decisions.md): no secret is stored.
    ...(input.secret ? { secret: input.secret } : {}),
    domains: [...new Set(input.domains)],
    ...(previous?.lastTriggerAt ? { lastTriggerAt: previous.lastTriggerAt } : {}),
  };
  // The whole job request is kept, secret values included: the hub needs them to run the job, and
  // an update that leaves `job` out must keep them (only names are ever returned).
  return { owner, webhook, ...(input.job ? { jobRequest: input.job } : {}) };
}
