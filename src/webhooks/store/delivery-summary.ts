import type { Delivery, DeliveryState } from './delivery-record.ts';

/** One delivery as the listing shows it: no payload, the event and repo read out of it. */
export interface DeliverySummary {
  id: string;
  route: string;
  receivedAt: string;
  state: DeliveryState;
  event: string;
  repo: string;
  attempts: number;
  /** The last attempt's duration; null while none has ended. */
  durationMs: number | null;
  duplicates: number;
  replays: number;
  error?: string;
  nextAttemptAt?: string;
}

function eventAndRepo(body: string): { event: string; repo: string } {
  try {
    const p = JSON.parse(body) as { event?: { action?: unknown; scope?: unknown }; repo?: { name?: unknown } };
    return {
      event: `${String(p.event?.scope ?? '?')} ${String(p.event?.action ?? '?')}`,
      repo: String(p.repo?.name ?? '?'),
    };
  } catch {
    return { event: '?', repo: '?' };
  }
}

export function summarize(d: Delivery): DeliverySummary {
  const last = d.attempts.at(-1);
  return {
    id: d.id,
    route: d.route,
    receivedAt: new Date(d.receivedAt).toISOString(),
    state: d.state,
    ...eventAndRepo(d.body),
    attempts: d.attempts.length,
    durationMs: last?.endedAt === undefined ? null : last.endedAt - last.startedAt,
    duplicates: d.duplicates,
    replays: d.replays,
    ...(d.error === undefined ? {} : { error: d.error }),
    ...(d.nextAttemptAt === undefined ? {} : { nextAttemptAt: new Date(d.nextAttemptAt).toISOString() }),
  };
}

/** The whole delivery: its summary, headers, payload (parsed), every attempt and the handler's result. */
export function detail(d: Delivery) {
  let payload: unknown;
  try {
    payload = JSON.parse(d.body);
  } catch {
    payload = d.body;
  }
  return {
    ...summarize(d),
    headers: d.headers,
    payload,
    attemptLog: d.attempts.map((a) => ({
      n: a.n,
      startedAt: new Date(a.startedAt).toISOString(),
      durationMs: a.endedAt === undefined ? null : a.endedAt - a.startedAt,
      ...(a.error === undefined ? {} : { error: a.error }),
    })),
    ...(d.state === 'done' ? { result: d.result ?? null } : {}),
  };
}
