// What the store keeps per delivery, and how it maps to journal records: a `D` record when the
// delivery arrives (meta, headers and the raw body) and an `M` record per change (the whole mutable
// part, so replaying a record twice changes nothing).
import type { JournalRecord } from './record-codec.ts';

export const deliveryStates = ['queued', 'running', 'done', 'failed', 'dead'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export interface Attempt {
  /** 1-based, counted over the delivery's whole life (replays continue the count). */
  n: number;
  startedAt: number;
  endedAt?: number;
  /** Why the attempt failed; absent for the one that succeeded or one still running. */
  error?: string;
}

/** The part of a delivery that changes: written whole on every change. */
export interface DeliveryProgress {
  state: DeliveryState;
  attempts: Attempt[];
  /** Attempts before this index were spent before the last replay: the retry budget counts from here. */
  budgetFrom: number;
  /** The handler's return value (state done). */
  result?: unknown;
  /** The last attempt's error (failed, dead). */
  error?: string;
  /** When a failed delivery is tried again (epoch ms). */
  nextAttemptAt?: number;
  /** Arrivals of the same delivery after the first, recorded and not handled. */
  duplicates: number;
  replays: number;
}

export interface Delivery extends DeliveryProgress {
  id: string;
  /** Arrival order, increasing across restarts. */
  seq: number;
  route: string;
  receivedAt: number;
  /** Request headers as received, less every header that carries a secret. */
  headers: Record<string, string>;
  /** The raw request body. */
  body: string;
}

const progressKeys = [
  'state',
  'attempts',
  'budgetFrom',
  'result',
  'error',
  'nextAttemptAt',
  'duplicates',
  'replays',
] as const;

export function arrivalRecord(d: Delivery): JournalRecord {
  const { body, ...rest } = d;
  const meta: Record<string, unknown> = rest;
  meta.k = 'D';
  return { meta, payload: body };
}

// In `progressKeys` order; a field left undefined is not written (JSON.stringify skips it).
export function progressRecord(id: string, p: DeliveryProgress): JournalRecord {
  const meta = {
    k: 'M',
    id,
    state: p.state,
    attempts: p.attempts,
    budgetFrom: p.budgetFrom,
    result: p.result,
    error: p.error,
    nextAttemptAt: p.nextAttemptAt,
    duplicates: p.duplicates,
    replays: p.replays,
  };
  return { meta };
}

/** Applies one journal record to the map of deliveries (records of unknown kinds are skipped). */
export function applyRecord(deliveries: Map<string, Delivery>, { meta, payload }: JournalRecord): void {
  const id = meta.id;
  if (typeof id !== 'string') return;
  // The parsed meta object becomes the delivery itself: reading 10,000 deliveries copies nothing. A
  // later arrival record of the same delivery (a compaction's, or one written again after it) holds
  // its state as of that record, so it replaces the earlier one; the delivery keeps its place.
  if (meta.k === 'D') {
    meta.k = undefined;
    lazyBody(meta, payload);
    deliveries.set(id, meta as unknown as Delivery);
  } else if (meta.k === 'M') {
    const d = deliveries.get(id) as unknown as Record<string, unknown> | undefined;
    if (!d) return;
    // Fields a change cleared are absent from its record: clear them here too.
    for (const k of progressKeys) d[k] = meta[k];
  }
}

/**
 * Decodes the stored body on first use: on open, most deliveries are finished and nobody reads their
 * payload, so turning ~10 MB of bytes into strings would only slow the restart.
 */
function lazyBody(meta: Record<string, unknown>, payload: Buffer | string | undefined): void {
  Object.defineProperty(meta, 'body', {
    enumerable: true,
    configurable: true,
    get(this: Record<string, unknown>) {
      const body = typeof payload === 'string' ? payload : (payload?.toString('utf8') ?? '');
      Object.defineProperty(this, 'body', { value: body, enumerable: true, configurable: true, writable: true });
      return body;
    },
  });
}
