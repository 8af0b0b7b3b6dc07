import { z } from 'zod';
import { Timestamp } from './common.ts';

/** One delivery of a webhook (x-mock-extension: the real hub's activity log shape is not published). */
export const WebhookLogEntry = z.strictObject({
  id: z.string(),
  createdAt: Timestamp,
  event: z.strictObject({ action: z.string(), scope: z.string() }),
  target: z.string(),
  /** HTTP status of the delivery, or null when it failed before a response (refused, timeout). */
  status: z.number().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
  replayOf: z.string().optional(),
  /** Job webhooks: the job this delivery started (the console links to `/jobs/<namespace>/<jobId>`). */
  jobId: z.string().optional(),
});
export type WebhookLogEntry = z.infer<typeof WebhookLogEntry>;
export const WebhookLogList = z.array(WebhookLogEntry);
