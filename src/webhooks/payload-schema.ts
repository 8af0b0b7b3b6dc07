import { z } from 'zod';
import { RepoType } from '../hub/schemas/repo.ts';

// Webhook payload v3, as the hub sends it (huggingface_hub `_webhooks_payload.py` plus the hub's
// webhook docs: `headSha`, `updatedRefs`, `updatedConfig`). Strict for what the mock hub sends;
// a receiver accepts much more (see receivedWebhookPayloadSchema), because new hub versions add
// fields, event actions and repo types that a receiver must not reject.

type ObjectFactory<C extends z.core.$ZodObjectConfig> = <S extends z.core.$ZodLooseShape>(
  shape: S,
) => z.ZodObject<S, C>;

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
    updatedRefs: z
      .array(
        object({
          ref: z.string().min(1),
          oldSha: z.string().nullable().optional(),
          newSha: z.string().nullable().optional(),
        }),
      )
      .optional(),
    updatedConfig: object({ private: z.boolean().optional(), xetEnabled: z.boolean().optional() }).optional(),
  });
}

/** What the mock hub sends: no field outside the known payload. */
export const webhookPayloadSchema = buildPayloadSchema(z.strictObject);
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/**
 * The known payload as a receiver sees it: every field optional, every enum open to values a newer
 * hub adds (an event action, a repo type), and any other field allowed. Values of the known fields
 * have the types the hub documents; the receiver does not check them.
 */
type Open<T> = T extends string
  ? T | (string & {})
  : T extends number
    ? number
    : T extends readonly (infer U)[]
      ? Open<U>[]
      : T extends object
        ? { [K in keyof T]?: Open<T[K]> } & { [key: string]: unknown }
        : T;

/** What a handler gets: the body as sent (nothing stripped), with an `event` and a `repo` object. */
export type ReceivedWebhookPayload = Open<WebhookPayload> & {
  event: Open<WebhookPayload['event']>;
  repo: Open<WebhookPayload['repo']>;
};

/**
 * What a receiving server accepts: any JSON object with an `event` object and a `repo` object.
 * Unknown fields, event actions and values reach the handler as sent (422 only for JSON that is
 * not an object or lacks event or repo). The cast gives handlers the open type above.
 */
export const receivedWebhookPayloadSchema = z.looseObject({
  event: z.looseObject({}, 'event must be an object'),
  repo: z.looseObject({}, 'repo must be an object'),
}) as unknown as z.ZodType<ReceivedWebhookPayload>;
