import type { WebhookLogEntry } from '../../hub/schemas/index.ts';
import { failureReason, succeeded } from './delivery-outcome.ts';

/** The receiver's status (or "No response") and, for a failure, its kind. */
export function DeliveryStatus({ entry }: { entry: WebhookLogEntry }) {
  const ok = succeeded(entry);
  const reason = failureReason(entry);
  return (
    <span
      className={ok ? 'text-success' : 'text-danger'}
      data-testid="delivery-status"
      data-outcome={ok ? 'succeeded' : 'failed'}
    >
      {entry.status !== null ? `HTTP ${entry.status}` : 'No response'}
      {reason && (
        <span className="block text-xs">
          {reason.label}
          {entry.error && entry.status === null ? `: ${entry.error}` : ''}
        </span>
      )}
    </span>
  );
}

/** Small labels next to a delivery's time: a replay of another one, or a test event. */
export function DeliveryTags({ entry }: { entry: WebhookLogEntry }) {
  const tag = 'ml-1 rounded bg-subtle-strong px-1 text-xs text-foreground';
  return (
    <>
      {entry.replayOf && <span className={tag}>replay</span>}
      {entry.test && <span className={tag}>test</span>}
    </>
  );
}
