import {
  DELIVERY_LOG_LIMIT,
  DELIVERY_PAYLOAD_LIMIT_BYTES,
  type DeliveryRequest,
  type WebhookDelivery,
  type WebhookLogEntry,
} from '../../hub/schemas/webhook-log.ts';

export const MAX_LOG_ENTRIES = DELIVERY_LOG_LIMIT;

/** What a masked header value reads as in the log: the secret itself is never stored. */
export const MASKED = '••••••••';
const SECRET_HEADERS = new Set(['x-webhook-secret', 'authorization']);

/**
 * Inserts a finished delivery into a newest-first log, bounded. Entries arrive when deliveries
 * finish, so they are placed by when they started, not appended.
 */
export function insertLogEntry<E extends WebhookLogEntry>(list: E[], entry: E, max = MAX_LOG_ENTRIES): E[] {
  const at = list.findIndex((e) => e.createdAt <= entry.createdAt);
  const next = [...list];
  next.splice(at === -1 ? next.length : at, 0, entry);
  if (next.length > max) next.length = max;
  return next;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The first `limit` bytes of UTF-8 as text, cut on a character boundary (a character split by the
 * limit is left out whole). Invalid UTF-8 is decoded with replacement characters.
 */
export function cutUtf8(bytes: Uint8Array, limit: number): { text: string; truncated: boolean } {
  if (bytes.length <= limit) return { text: decoder.decode(bytes), truncated: false };
  let end = limit;
  // A continuation byte (10xxxxxx) at the cut belongs to a character that started before it.
  while (end > Math.max(0, limit - 3) && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: decoder.decode(bytes.subarray(0, end)), truncated: true };
}

/** Request headers as the log keeps them: secret-bearing values masked. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? MASKED : v]),
  );
}

/** The request part of a log record: masked headers and the payload as sent, cut at the limit. */
export function requestRecord(
  headers: Record<string, string>,
  payloadJson: string,
  limit = DELIVERY_PAYLOAD_LIMIT_BYTES,
): DeliveryRequest {
  const bytes = encoder.encode(payloadJson);
  const { text, truncated } = cutUtf8(bytes, limit);
  return { headers: maskHeaders(headers), payload: text, payloadBytes: bytes.length, payloadTruncated: truncated };
}

/** The list view of a record: without the request and response it carries. */
export function logSummary({ request: _request, response: _response, ...entry }: WebhookDelivery): WebhookLogEntry {
  return entry;
}

/** The payload a replay re-sends: only a record that kept the whole payload can be replayed. */
export function replayablePayload(record: WebhookDelivery | undefined): string | undefined {
  return record?.request && !record.request.payloadTruncated ? record.request.payload : undefined;
}
