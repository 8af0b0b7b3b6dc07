import { useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import type { AuditLogExportResult } from '../../hub/client.ts';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import { AuditTable } from './audit-table.tsx';
import { filterByType, hitExportCap, sortIndexes, typeCounts } from './audit-view.ts';
import { saveText } from '../../components/ui/save-text.ts';
import { EventDrawer } from './event-drawer.tsx';
import { TypeFacet } from './type-facet.tsx';
import type { AuditParams, AuditParamsUpdate } from './use-audit-params.ts';

/**
 * The export: facet, table, drawer and download. Derived data is memoized per export. Before the
 * whole export is parsed (`result` null) the newest events are shown from `events` alone.
 */
export function AuditLogView({
  org,
  events,
  result,
  params,
  update,
  fetching,
  onRefresh,
}: {
  org: string;
  events: readonly AuditLogEvent[];
  result: AuditLogExportResult | null;
  params: AuditParams;
  update: AuditParamsUpdate;
  fetching: boolean;
  onRefresh?: () => void;
}) {
  const [open, setOpen] = useState<AuditLogEvent | null>(null);
  const counts = useMemo(() => (result ? typeCounts(events) : []), [events, result]);
  const sorted = useMemo(() => sortIndexes(events, params.sort, params.dir), [events, params.sort, params.dir]);
  const order = useMemo(() => filterByType(events, sorted, params.facet), [events, sorted, params.facet]);
  const filename = result?.filename ?? `${org}-audit-log.json`;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm" role="status" data-testid="audit-count" data-complete={Boolean(result)}>
          {result ? (
            <>
              {order.length.toLocaleString('en')} of {events.length.toLocaleString('en')} events
              {params.facet && (
                <>
                  {' '}
                  of type <code>{params.facet}</code>
                </>
              )}
              {fetching && ' · refreshing…'}
            </>
          ) : (
            `The newest ${events.length} events; loading the rest of the export…`
          )}
        </p>
        <div className="flex gap-2">
          {onRefresh && (
            <Button variant="ghost" onClick={onRefresh} disabled={fetching}>
              Export again
            </Button>
          )}
          <Button
            onClick={() => result && saveText(result.raw, filename)}
            disabled={!result}
            title={`Saves ${filename}`}
          >
            Download {result ? filename : 'export'}
          </Button>
        </div>
      </div>
      {result && hitExportCap(events.length) && (
        <p role="note" className="text-sm text-warning" data-testid="audit-cap">
          The newest {events.length.toLocaleString('en')} events; narrow the filter to see older ones.
        </p>
      )}
      {events.length === 0 ? (
        <EmptyState title="No events match this filter" />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)]">
          {result ? (
            <TypeFacet
              counts={counts}
              total={events.length}
              selected={params.facet}
              onSelect={(facet) => update({ facet })}
            />
          ) : (
            <Skeleton rows={6} label="Counting event types" />
          )}
          <AuditTable
            key={`${Boolean(result)}:${params.facet}:${params.sort}:${params.dir}`}
            events={events}
            order={order}
            sort={params.sort}
            dir={params.dir}
            onSort={(sort, dir) => update({ sort, dir })}
            onOpen={setOpen}
          />
        </div>
      )}
      <EventDrawer event={open} onClose={() => setOpen(null)} />
    </div>
  );
}
