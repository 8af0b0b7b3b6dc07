import { z } from 'zod';
import { Timestamp } from './common.ts';
import { RepoId } from './repo.ts';

// The webhook delivery log (x-mock-extension: the spec leaves "the log record shape used by
// replay" not shown, and no public client reads the real hub's activity log).

/** Deliveries kept per webhook, newest first. */
export const DELIVERY_LOG_LIMIT = 50;
/** The payload as sent is kept up to this many bytes of UTF-8; a longer one is cut (and cannot be replayed). */
export const DELIVERY_PAYLOAD_LIMIT_BYTES = 64 * 1024;
/** The receiver's response body is kept up to this many bytes. */
export const DELIVERY_RESPONSE_LIMIT_BYTES = 4 * 1024;

/**
 * Why a delivery failed: the receiver refused the connection, did not answer in time, answered
 * outside 2xx, the connection broke otherwise (DNS, reset), or a job could not be started.
 */
export const DELIVERY_FAILURES = ['refused', 'timeout', 'non-2xx', 'network', 'job'] as const;
export const DeliveryFailure = z.enum(DELIVERY_FAILURES);
export type DeliveryFailure = z.infer<typeof DeliveryFailure>;

/** One delivery of a webhook, as the log list shows it. */
export const WebhookLogEntry = z.strictObject({
  id: z.string(),
  createdAt: Timestamp,
  event: z.strictObject({ action: z.string(), scope: z.string() }),
  /** The repo the event is about (absent on entries logged before it was recorded). */
  repo: RepoId.optional(),
  target: z.string(),
  /** HTTP status of the delivery, or null when it failed before a response (refused, timeout). */
  status: z.number().nullable(),
  error: z.string().nullable(),
  failure: DeliveryFailure.nullable().optional(),
  durationMs: z.number(),
  replayOf: z.string().optional(),
  /** Sent with "Send test event" rather than caused by a hub event. */
  test: z.boolean().optional(),
  /** The Job a job webhook's delivery started (its namespace is the webhook owner's). */
  jobId: z.string().optional(),
});
export type WebhookLogEntry = z.infer<typeof WebhookLogEntry>;
export const WebhookLogList = z.array(WebhookLogEntry);

export const DeliveryRequest = z.strictObject({
  /** Request headers as sent; the webhook secret's value is masked. Empty for job webhooks (no HTTP request). */
  headers: z.record(z.string(), z.string()),
  /** The payload JSON exactly as sent, cut at DELIVERY_PAYLOAD_LIMIT_BYTES. */
  payload: z.string(),
  /** Size of the whole payload in bytes. */
  payloadBytes: z.number().int().nonnegative(),
  payloadTruncated: z.boolean(),
});
export type DeliveryRequest = z.infer<typeof DeliveryRequest>;

export const DeliveryResponse = z.strictObject({
  contentType: z.string().nullable(),
  /** The start of the response body, cut at DELIVERY_RESPONSE_LIMIT_BYTES (invalid UTF-8 replaced). */
  body: z.string(),
  /** Size of the whole body: exact when it was read to the end, else its Content-Length, else null (unknown). */
  bodyBytes: z.number().int().nonnegative().nullable(),
  bodyTruncated: z.boolean(),
});
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;

/** One delivery with what was sent and what came back (GET .../logs/{logId}). */
export const WebhookDelivery = WebhookLogEntry.extend({
  /** Absent on entries logged before requests were recorded. */
  request: DeliveryRequest.optional(),
  /** null when no HTTP response came (refused, timeout) or for job webhooks. */
  response: DeliveryResponse.nullable().optional(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** Sample events "Send test event" offers; each belongs to the webhook domain before its first dash. */
export const TEST_EVENT_SAMPLES = [
  'repo-create',
  'repo-update',
  'repo-config',
  'discussion-create',
  'discussion-comment',
  'pull-request-create',
] as const;
export const TestEventSample = z.enum(TEST_EVENT_SAMPLES);
export type TestEventSample = z.infer<typeof TestEventSample>;

export function testEventDomain(sample: TestEventSample): 'repo' | 'discussion' {
  return sample.startsWith('repo') ? 'repo' : 'discussion';
}

export const TestEventInput = z.strictObject({ sample: TestEventSample });
export type TestEventInput = z.infer<typeof TestEventInput>;
/** The logged delivery of the test event and the receiver's status (0: no HTTP response). */
export const TestEventResult = z.strictObject({ logId: z.string(), status: z.number() });
export type TestEventResult = z.infer<typeof TestEventResult>;
