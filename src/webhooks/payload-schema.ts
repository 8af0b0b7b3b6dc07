import { z } from 'zod';
import { RepoType } from '../hub/schemas/repo.ts';

// Webhook payload v3, as the hub sends it (huggingface_hub `_webhooks_payload.py` plus the hub's
// webhook docs: `headSha`, `updatedRefs`, `updatedConfig`). Built twice from one definition:
// strict for what the mock hub sends, loose for what a receiver accepts, because the real hub
// may add fields a receiver must not reject.

type ObjectFactory<C extends z.core.$ZodObjectConfig> = <S extends z.core.$ZodLooseShape>(shape: S) => z.ZodObject<S, C>;

export const webhookEventActions = ['create', 'delete', 'move', 'update'] as const;
export const discussionStatuses = ['draft', 'open', 'closed', 'merged'] as const;

function buildPayloadSchema<C extends z.core.$ZodObjectConfig>(object: ObjectFactory<C>) {
  const objectId = object({ id: z.string().min(1) });
  const url = object({ web: z.string().min(1), api: z.string().min(1).optional() });
  return object({
    event: object({ action: z.enum(webhookEventActions), scope: z.string().min(1) }),
    repo: object({
      type: RepoType,
      name: z.string().min(1),
      id: z.string().min(1),
      private: z.boolean(),
      headSha: z.string().optional(),
      subdomain: z.string().optional(),
      tags: z.array(z.string()).optional(),
      url,
      owner: objectId,
    }),
    discussion: object({
      id: z.string().min(1),
      num: z.number().int().nonnegative(),
      author: objectId,
      url,
      title: z.string(),
      isPullRequest: z.boolean(),
      status: z.enum(discussionStatuses),
      changes: object({ base: z.string(), mergeCommitId: z.string().nullable().optional() }).optional(),
      pinned: z.boolean().optional(),
    }).optional(),
    comment: object({
      id: z.string().min(1),
      author: objectId,
      hidden: z.boolean(),
      content: z.string().optional(),
      url,
    }).optional(),
    webhook: object({ id: z.string().min(1), version: z.literal(3) }),
    movedTo: object({ name: z.string().min(1), owner: objectId }).optional(),
    // A created ref has oldSha null, a deleted one newSha null.
    updatedRefs: z.array(object({ ref: z.string().min(1), oldSha: z.string().nullable().optional(), newSha: z.string().nullable().optional() })).optional(),
    updatedConfig: object({ private: z.boolean().optional(), xetEnabled: z.boolean().optional() }).optional(),
  });
}

/** What the mock hub sends: no field outside the known payload. */
export const webhookPayloadSchema = buildPayloadSchema(z.strictObject);
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** What a receiving server accepts: the known payload, extra fields kept. */
export const receivedWebhookPayloadSchema = buildPayloadSchema(z.looseObject);
export type ReceivedWebhookPayload = z.infer<typeof receivedWebhookPayloadSchema>;
