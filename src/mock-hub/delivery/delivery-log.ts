import type { WebhookLogEntry } from '../../hub/schemas/webhook-log.ts';
import type { WebhookPayload } from '../../webhooks/payload-schema.ts';

export const MAX_LOG_ENTRIES = 50;
export const MAX_KEPT_PAYLOADS = 5_000;

/**
 * Inserts a finished delivery into a newest-first log, bounded. Entries arrive when deliveries
 * finish, so they are placed by when they started, not appended.
 */
export function insertLogEntry(list: WebhookLogEntry[], entry: WebhookLogEntry, max = MAX_LOG_ENTRIES): WebhookLogEntry[] {
  const at = list.findIndex((e) => e.createdAt <= entry.createdAt);
  const next = [...list];
  next.splice(at === -1 ? next.length : at, 0, entry);
  if (next.length > max) next.length = max;
  return next;
}

/**
 * Payloads of logged deliveries, for replay. The log entry schema has no payload field, so they
 * are kept here, in memory and bounded: after a restart older entries can no longer be replayed.
 */
export class PayloadArchive {
  private readonly byLogId = new Map<string, WebhookPayload>();

  constructor(private readonly max = MAX_KEPT_PAYLOADS) {}

  keep(logId: string, payload: WebhookPayload): void {
    this.byLogId.set(logId, payload);
    if (this.byLogId.size > this.max) this.byLogId.delete(this.byLogId.keys().next().value!);
  }

  get(logId: string): WebhookPayload | undefined {
    return this.byLogId.get(logId);
  }
}
