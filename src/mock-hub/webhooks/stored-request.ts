import { z } from 'zod';
import { Timestamp, WebhookDisabled, WebhookInput } from '../../hub/schemas/index.ts';
import type { StoredWebhook } from '../store/state-schema.ts';

/**
 * What the mock keeps of a webhook, as the request that would create it again (secret values
 * included), plus its state. Tests compare it before and after an edit: a field that changes here
 * is a field the edit changed. The real hub never returns secret values; this is mock tooling.
 */
export const StoredWebhookRequest = z.strictObject({
  request: WebhookInput,
  disabled: WebhookDisabled,
  lastTriggerAt: Timestamp.optional(),
});
export type StoredWebhookRequest = z.output<typeof StoredWebhookRequest>;

export function storedRequestOf({ webhook, jobRequest }: StoredWebhook): StoredWebhookRequest {
  return {
    request: {
      watched: webhook.watched.map(({ type, name }) => ({ type, name })),
      domains: webhook.domains,
      ...(webhook.url !== undefined ? { url: webhook.url } : {}),
      ...(webhook.job && jobRequest ? { job: jobRequest } : {}),
      ...(webhook.jobSourceId !== undefined ? { jobSourceId: webhook.jobSourceId } : {}),
      ...(webhook.secret !== undefined ? { secret: webhook.secret } : {}),
    },
    disabled: webhook.disabled,
    ...(webhook.lastTriggerAt ? { lastTriggerAt: webhook.lastTriggerAt } : {}),
  } as StoredWebhookRequest;
}
