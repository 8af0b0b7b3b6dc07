import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime } from '../../components/ui/format.ts';
import { NotExposedNote } from '../../components/ui/not-exposed-note.tsx';
import { SimpleTable } from '../../components/ui/simple-table.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import type { Webhook } from '../../hub/schemas/index.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { filterByOutcome, isOutcomeFilter, OUTCOME_FILTERS, type OutcomeFilter } from './delivery-outcome.ts';
import { DeliveryStatus, DeliveryTags } from './delivery-status.tsx';
import { OutcomeFilterControl } from './outcome-filter.tsx';
import { ReplayById } from './replay-by-id.tsx';
import { SendTestEvent } from './send-test-event.tsx';
import { useDeliveryLog } from './use-delivery-log.ts';
import { useReplayDelivery } from './use-webhook-mutations.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

type ReplayOutcome = { ok: true; status: number } | { ok: false; message: string };

/** The outcome filter lives in the URL (`?outcome=failed`), so a filtered log can be bookmarked. */
function useOutcomeFilter(): [OutcomeFilter, (v: OutcomeFilter) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('outcome');
  const set = (v: OutcomeFilter) => setParams(v === 'all' ? {} : { outcome: v }, { replace: true });
  return [isOutcomeFilter(raw) ? raw : 'all', set];
}

/**
 * Deliveries, newest first, each opening its detail and offering a replay; plus "Send test event".
 * On a hub without the log endpoint: one line saying so, and replay by log id.
 */
export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const { query: q, notExposed } = useDeliveryLog(webhook.id);
  const replay = useReplayDelivery(webhook.id);
  const [outcomes, setOutcomes] = useState<Record<string, ReplayOutcome>>({});
  const [filter, setFilter] = useOutcomeFilter();
  const { items, unreadable } = useMemo(() => splitReadable(q.data), [q.data]);
  const all = useMemo(() => [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), [items]);
  const entries = useMemo(() => filterByOutcome(all, filter), [all, filter]);
  const counts = useMemo(
    () =>
      Object.fromEntries(OUTCOME_FILTERS.map((f) => [f, filterByOutcome(all, f).length])) as Record<
        OutcomeFilter,
        number
      >,
    [all],
  );

  const run = (logId: string) =>
    replay.mutate(logId, {
      onSuccess: (r) => setOutcomes((o) => ({ ...o, [logId]: { ok: true, status: r.status } })),
      onError: (e) => setOutcomes((o) => ({ ...o, [logId]: { ok: false, message: describeError(e).message } })),
    });

  return (
    <section aria-labelledby="delivery-log-title">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="delivery-log-title" className="text-lg font-semibold">
          Delivery log
        </h2>
        {q.data && (
          <div className="flex items-center gap-2">
            <OutcomeFilterControl value={filter} counts={counts} onChange={setFilter} />
            <Button variant="ghost" onClick={() => void q.refetch()} disabled={q.isFetching}>
              {q.isFetching ? 'Refreshing…' : 'Refresh'}
            </Button>
          </div>
        )}
      </div>
      {q.data && <SendTestEvent webhook={webhook} />}
      {q.isPending && <Skeleton rows={3} label="Loading deliveries" />}
      {notExposed && (
        <>
          <NotExposedNote error={notExposed}>
            past deliveries cannot be listed and test events cannot be sent here; replay a delivery by its log id.
          </NotExposedNote>
          <ReplayById webhookId={webhook.id} />
        </>
      )}
      {q.isError && !notExposed && (
        <ErrorPanel error={q.error} title="Could not load the delivery log" onRetry={() => void q.refetch()} />
      )}
      <UnreadableItems items={unreadable} what="delivery" />
      {q.data && all.length === 0 && unreadable.length === 0 && (
        <EmptyState title="No deliveries yet">
          Events that reach this webhook appear here; send a test event to try it.
        </EmptyState>
      )}
      {all.length > 0 && entries.length === 0 && (
        <EmptyState title={`No ${filter} deliveries`}>
          Of the last {all.length} deliveries, none {filter === 'failed' ? 'failed' : 'succeeded'}.
        </EmptyState>
      )}
      {entries.length > 0 && (
        <SimpleTable
          columns={[
            'Time',
            'Event',
            'Repository',
            'Target',
            'Status',
            'Duration',
            <span key="replay" className="sr-only">
              Replay
            </span>,
          ]}
        >
          {entries.map((e) => {
            const outcome = outcomes[e.id];
            return (
              <tr key={e.id} className="border-t border-border" data-testid="delivery-row" data-id={e.id}>
                <td className="whitespace-nowrap px-3 py-2">
                  <TextLink
                    to={`deliveries/${e.id}`}
                    underline="hover"
                    aria-label={`Delivery of ${formatDateTime(e.createdAt)}: details`}
                  >
                    <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                  </TextLink>
                  <DeliveryTags entry={e} />
                </td>
                <td className="px-3 py-2">{`${e.event.scope}.${e.event.action}`}</td>
                <td className="max-w-48 truncate px-3 py-2">{e.repo ? e.repo.name : '—'}</td>
                <td className="max-w-xs truncate px-3 py-2" title={e.target}>
                  {e.target}
                </td>
                <td className="px-3 py-2">
                  <DeliveryStatus entry={e} />
                </td>
                <td className="whitespace-nowrap px-3 py-2">{Math.round(e.durationMs)} ms</td>
                <td className="whitespace-nowrap px-3 py-2">
                  <Button
                    onClick={() => run(e.id)}
                    disabled={replay.isPending && replay.variables === e.id}
                    aria-label={`Replay delivery of ${formatDateTime(e.createdAt)}`}
                  >
                    Replay
                  </Button>
                  <span role="status" className="ml-2 text-xs" data-testid="replay-result">
                    {outcome?.ok === true && `Replayed: HTTP ${outcome.status}`}
                    {outcome?.ok === false && <span className="text-danger">Replay failed: {outcome.message}</span>}
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
