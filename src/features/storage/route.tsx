import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { hubSiteUrl } from '../../components/session/proxied-hub.ts';
import { useHubClient, useSession } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatBytes } from '../../components/ui/format.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { saveText } from '../../components/ui/save-text.ts';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import { repositoryUsageQuery, whoamiQuery } from '../../hub/queries.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { StorageCharts } from './storage-chart.tsx';
import { StorageFilters } from './storage-filters.tsx';
import { useStorageParams } from './use-storage-params.ts';
import { usageCsv, usageCsvName } from './usage-export.ts';
import { summarize } from './usage-summary.ts';
import { UsageTable } from './usage-table.tsx';
import { UsageTotals } from './usage-totals.tsx';

export function Component() {
  const client = useHubClient();
  const { session } = useSession();
  const hubUrl = hubSiteUrl(session?.baseUrl ?? '');
  const [params, update] = useStorageParams();
  const me = useQuery(whoamiQuery(client));
  const ownerQuery = { ...(params.org ? { org: params.org } : {}), sort: 'storage', direction: 'desc' } as const;
  // Totals and charts cover every repository of the owner; search, type and limit narrow the table only.
  const everything = useQuery({ ...repositoryUsageQuery(client, ownerQuery), placeholderData: keepPreviousData });
  const usage = useQuery({
    ...repositoryUsageQuery(client, {
      ...ownerQuery,
      sort: params.sort,
      direction: params.direction,
      ...(params.search ? { search: params.search } : {}),
      ...(params.type ? { type: params.type } : {}),
      ...(params.limit ? { limit: params.limit } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const all = useMemo(() => splitReadable(everything.data), [everything.data]);
  const rows = useMemo(() => splitReadable(usage.data), [usage.data]);
  const summary = useMemo(() => summarize(all.items), [all]);
  const shown = useMemo(() => summarize(rows.items), [rows]);
  const owner = params.org || me.data?.name || 'you';
  const failed = everything.isError ? everything : usage.isError ? usage : undefined;
  return (
    <>
      <PageHeader
        title="Storage"
        description={`Repository storage for ${owner}. Sizes are in bytes (decimal units).`}
      />
      <StorageFilters params={params} onChange={update} me={me.data?.name ?? 'Me'} orgs={me.data?.orgs ?? []} />
      {(everything.isPending || usage.isPending) && !failed && <Skeleton label="Loading repository usage" />}
      {failed && (
        <ErrorPanel
          error={failed.error}
          title="Could not load repository usage"
          onRetry={() => void Promise.all([everything.refetch(), usage.refetch()])}
        />
      )}
      {everything.data && usage.data && (
        <div
          className={`space-y-6 ${usage.isPlaceholderData || everything.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-busy={usage.isFetching || everything.isFetching}
        >
          <UsageTotals summary={summary} owner={owner} />
          {summary.count > 0 && <StorageCharts summary={summary} />}
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <p data-testid="shown-summary">
              Showing {shown.count} of {summary.count} repositories · {formatBytes(shown.bytes)} of{' '}
              {formatBytes(summary.bytes)}
            </p>
            {rows.items.length > 0 && (
              <Button
                className="ml-auto"
                onClick={() => saveText(usageCsv(rows.items, hubUrl), usageCsvName(owner), 'text/csv')}
              >
                Export CSV
              </Button>
            )}
          </div>
          <UnreadableItems items={rows.unreadable} what="repository" />
          {usage.data.length === 0 ? (
            <EmptyState title="No repositories match">Change the search or type filter.</EmptyState>
          ) : (
            <UsageTable rows={rows.items} params={params} hubUrl={hubUrl} onChange={update} />
          )}
        </div>
      )}
    </>
  );
}
