import { z } from 'zod';
import { Id24, Timestamp } from './common.ts';
import { WebhookJob, WebhookJobRequest } from './webhook-job.ts';

export const WATCHED_TYPES = ['dataset', 'model', 'space', 'bucket', 'kernel', 'user', 'org'] as const;
export const WatchedType = z.enum(WATCHED_TYPES);
export const WEBHOOK_DOMAINS = ['repo', 'discussion'] as const;
export const WebhookDomain = z.enum(WEBHOOK_DOMAINS);
export type WebhookDomain = z.infer<typeof WebhookDomain>;

export const WatchedItem = z.strictObject({
  name: z.string().min(1),
  type: WatchedType,
  avatarUrl: z.string().optional(),
});
export type WatchedItem = z.infer<typeof WatchedItem>;

export const WebhookDisabled = z.union([z.boolean(), z.literal('suspended-after-failure')]);
export type WebhookDisabled = z.infer<typeof WebhookDisabled>;

/** Printable ASCII, 0x20..0x7F as the spec writes it. */
export const WebhookSecret = z.string().regex(/^[\x20-\x7F]*$/, 'secret must be printable ASCII (0x20 to 0x7F)');

export const Webhook = z.strictObject({
  id: Id24,
  url: z.url().optional(),
  job: WebhookJob.optional(),
  jobSourceId: z.string().optional(),
  disabled: WebhookDisabled,
  watched: z.array(WatchedItem),
  secret: z.string().optional(),
  domains: z.array(WebhookDomain),
  lastTriggerAt: Timestamp.optional(),
});
export type Webhook = z.infer<typeof Webhook>;

const WatchedInputItem = z.strictObject({
  type: WatchedType,
  name: z.string().min(1, 'watched names must not be empty'),
});
const webhookFields = {
  watched: z.array(WatchedInputItem).min(1, 'watched needs at least one item'),
  domains: z.array(WebhookDomain).min(1, 'domains needs at least one item'),
  url: z.url({ protocol: /^https?$/, message: 'url must be an http(s) URI' }).optional(),
  job: WebhookJobRequest.optional(),
  jobSourceId: z.string().min(1).optional(),
  secret: WebhookSecret.optional(),
};

function countTargets(body: { url?: unknown; job?: unknown; jobSourceId?: unknown }): number {
  return [body.url, body.job, body.jobSourceId].filter((t) => t !== undefined).length;
}

/** Create body. A webhook has exactly one target: url, job or jobSourceId. */
export const WebhookInput = z.strictObject(webhookFields).superRefine((body, ctx) => {
  if (countTargets(body) !== 1)
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'give exactly one target: url, job or jobSourceId' });
});
export type WebhookInput = z.input<typeof WebhookInput>;

/**
 * Update body: the create body, where every field left out keeps its stored value, as the real
 * hub's clients send it (huggingface_hub's update_webhook sends `watched` (empty when not
 * changed) and only the other fields it was given). A given target replaces the stored one.
 */
export const WebhookUpdateInput = z
  .strictObject({
    ...webhookFields,
    watched: z.array(WatchedInputItem).optional(),
    domains: webhookFields.domains.optional(),
  })
  .superRefine((body, ctx) => {
    if (countTargets(body) > 1)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'give at most one target: url, job or jobSourceId' });
  });
export type WebhookUpdateInput = z.input<typeof WebhookUpdateInput>;

export const WebhookEnvelope = z.strictObject({ webhook: Webhook });
export const WebhookList = z.array(Webhook);
export const WebhookAction = z.enum(['enable', 'disable']);
export const ReplayResult = z.strictObject({ status: z.number() });
