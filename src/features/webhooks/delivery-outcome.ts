import type { DeliveryFailure, WebhookLogEntry } from '../../hub/schemas/index.ts';

export const OUTCOME_FILTERS = ['all', 'failed', 'succeeded'] as const;
export type OutcomeFilter = (typeof OUTCOME_FILTERS)[number];

export function isOutcomeFilter(v: string | null): v is OutcomeFilter {
  return (OUTCOME_FILTERS as readonly string[]).includes(v ?? '');
}

/** A delivery succeeded when the receiver answered 2xx (a started job counts as 200). */
export function succeeded(e: Pick<WebhookLogEntry, 'status'>): boolean {
  return e.status !== null && e.status >= 200 && e.status < 300;
}

export function filterByOutcome<E extends Pick<WebhookLogEntry, 'status'>>(
  entries: readonly E[],
  filter: OutcomeFilter,
): E[] {
  if (filter === 'all') return [...entries];
  return entries.filter((e) => succeeded(e) === (filter === 'succeeded'));
}

/** The failure kind, also for entries logged before the kind was recorded. */
export function failureOf(e: Pick<WebhookLogEntry, 'status' | 'error' | 'failure'>): DeliveryFailure | null {
  if (succeeded(e)) return null;
  if (e.failure) return e.failure;
  if (e.status !== null) return 'non-2xx';
  if (/ECONNREFUSED/.test(e.error ?? '')) return 'refused';
  if (/^timeout/i.test(e.error ?? '')) return 'timeout';
  return 'network';
}

const FAILURE_LABELS: Record<DeliveryFailure, string> = {
  refused: 'Connection refused',
  timeout: 'Timed out',
  'non-2xx': 'Non-2xx answer',
  network: 'Network error',
  job: 'Job not started',
};

/** One sentence a person can act on; null for a delivery that succeeded. */
export function failureReason(
  e: Pick<WebhookLogEntry, 'status' | 'error' | 'failure'>,
): { label: string; detail: string } | null {
  const kind = failureOf(e);
  if (!kind) return null;
  const detail = {
    refused:
      'Nothing accepted the connection at the receiver’s address: is the server running, and is the URL’s port right?',
    timeout: 'The receiver did not answer in time; the hub gave up on this delivery.',
    'non-2xx': `The receiver answered HTTP ${e.status}; only 2xx counts as delivered.`,
    network: 'The connection failed before an answer came (name lookup, reset, TLS).',
    job: 'The hub could not start the job this webhook runs.',
  }[kind];
  return { label: FAILURE_LABELS[kind], detail: e.error && kind !== 'non-2xx' ? `${detail} (${e.error})` : detail };
}

/** The payload pretty-printed; a cut (or otherwise unparsable) payload is shown as it was sent. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** `/jobs/<namespace>/<jobId>` for a job webhook's delivery (target reads "job <namespace>/<id>"). */
export function jobPath(e: Pick<WebhookLogEntry, 'jobId' | 'target'>, owner: string | undefined): string | null {
  const fromTarget = /^job ([^/\s]+)\/([0-9a-f]{24})$/.exec(e.target);
  const jobId = e.jobId ?? fromTarget?.[2];
  const namespace = fromTarget?.[1] ?? owner;
  return jobId && namespace ? `/jobs/${encodeURIComponent(namespace)}/${encodeURIComponent(jobId)}` : null;
}
