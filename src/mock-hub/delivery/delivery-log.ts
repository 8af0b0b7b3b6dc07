import type { WebhookLogEntry } from '../../hub/schemas/webhook-log.ts';
import type { WebhookPayload } from '../../webhooks/payload-schema.ts';

export const MAX_LOG_ENTRIES = 200;

interface Logged {
  entry: WebhookLogEntry;
  /** Kept for replay; not part of the listed entry. */
  payload: WebhookPayload;
}

/** Per-webhook delivery log, newest first, bounded. In memory: a mock hub restart forgets it. */
export class DeliveryLog {
  private readonly byWebhook = new Map<string, Logged[]>();

  constructor(private readonly max = MAX_LOG_ENTRIES) {}

  add(webhookId: string, entry: WebhookLogEntry, payload: WebhookPayload): void {
    const list = this.byWebhook.get(webhookId) ?? [];
    // Entries arrive when deliveries finish, so keep them ordered by when they started.
    const at = list.findIndex((l) => l.entry.createdAt <= entry.createdAt);
    list.splice(at === -1 ? list.length : at, 0, { entry, payload });
    if (list.length > this.max) list.length = this.max;
    this.byWebhook.set(webhookId, list);
  }

  list(webhookId: string): WebhookLogEntry[] {
    return (this.byWebhook.get(webhookId) ?? []).map((l) => l.entry);
  }

  find(webhookId: string, logId: string): Logged | undefined {
    return this.byWebhook.get(webhookId)?.find((l) => l.entry.id === logId);
  }

  forget(webhookId: string): void {
    this.byWebhook.delete(webhookId);
  }
}
