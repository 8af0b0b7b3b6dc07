import { useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime } from '../../components/ui/format.ts';
import { NotExposedNote } from '../../components/ui/not-exposed-note.tsx';
import { SimpleTable } from '../../components/ui/simple-table.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import type { WebhookLogEntry } from '../../hub/schemas/index.ts';
import { ReplayById } from './replay-by-id.tsx';
import { useDeliveryLog } from './use-delivery-log.ts';
import { useReplayDelivery } from './use-webhook-mutations.ts';

type ReplayOutcome = { ok: true; status: number } | { ok: false; message: string };

function DeliveryStatus({ entry }: { entry: WebhookLogEntry }) {
  const ok = entry.status !== null && entry.status >= 200 && entry.status < 300;
  return (
    <span className={ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300'}>
      {entry.status !== null ? `HTTP ${entry.status}` : 'No response'}
      {entry.error && <span className="block text-xs">{entry.error}</span>}
    </span>
  );
}

/**
 * Deliveries, newest first, each with a replay that reports the receiver's status. On a hub
 * without the log endpoint: one line saying so, and replay by log id.
 */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const { query: q, notExposed } = useDeliveryLog(webhookId);
  const replay = useReplayDelivery(webhookId);
  const [outcomes, setOutcomes] = useState<Record<string, ReplayOutcome>>({});
  const entries = useMemo(() => [...(q.data ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), [q.data]);

  const run = (logId: string) =>
    replay.mutate(logId, {
      onSuccess: (r) => setOutcomes((o) => ({ ...o, [logId]: { ok: true, status: r.status } })),
      onError: (e) => setOutcomes((o) => ({ ...o, [logId]: { ok: false, message: describeError(e).message } })),
    });

  return (
    <section aria-labelledby="delivery-log-title">
      <div className="mb-2 flex items-center justify-between">
        <h2 id="delivery-log-title" className="text-lg font-semibold">Delivery log</h2>
        {!notExposed && (
          <Button variant="ghost" onClick={() => void q.refetch()} disabled={q.isFetching}>
            {q.isFetching ? 'Refreshing…' : 'Refresh'}
          </Button>
        )}
      </div>
      {q.isPending && <Skeleton rows={3} label="Loading deliveries" />}
      {notExposed && (
        <>
          <NotExposedNote error={notExposed}>replay a delivery here by its log id.</NotExposedNote>
          <ReplayById webhookId={webhookId} />
        </>
      )}
      {q.isError && !notExposed && <ErrorPanel error={q.error} title="Could not load the delivery log" onRetry={() => void q.refetch()} />}
      {q.data && entries.length === 0 && <EmptyState title="No deliveries yet">Events that reach this webhook appear here.</EmptyState>}
      {entries.length > 0 && (
        <SimpleTable columns={['Time', 'Event', 'Target', 'Status', 'Duration', <span key="replay" className="sr-only">Replay</span>]}>
          {entries.map((e) => {
            const outcome = outcomes[e.id];
            return (
              <tr key={e.id} className="border-t border-slate-200 dark:border-slate-800" data-testid="delivery-row">
                <td className="whitespace-nowrap px-3 py-2">
                  <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                  {e.replayOf && <span className="ml-1 rounded bg-slate-200 px-1 text-xs dark:bg-slate-700">replay</span>}
                </td>
                <td className="px-3 py-2">{`${e.event.scope}.${e.event.action}`}</td>
                <td className="max-w-xs truncate px-3 py-2" title={e.target}>{e.target}</td>
                <td className="px-3 py-2"><DeliveryStatus entry={e} /></td>
                <td className="whitespace-nowrap px-3 py-2">{Math.round(e.durationMs)} ms</td>
                <td className="whitespace-nowrap px-3 py-2">
                  <Button onClick={() => run(e.id)} disabled={replay.isPending && replay.variables === e.id} aria-label={`Replay delivery of ${formatDateTime(e.createdAt)}`}>
                    Replay
                  </Button>
                  <span role="status" className="ml-2 text-xs" data-testid="replay-result">
                    {outcome?.ok === true && `Replayed: HTTP ${outcome.status}`}
                    {outcome?.ok === false && <span className="text-red-800 dark:text-red-300">Replay failed: {outcome.message}</span>}
                  </span>
                </td>
              </tr>
            );
          })}
        </SimpleTable>
      )}
    </section>
  );
}
