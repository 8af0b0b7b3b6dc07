import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { repositoryUsageQuery, whoamiQuery } from '../../hub/queries.ts';
import { StorageCharts } from './storage-chart.tsx';
import { StorageFilters } from './storage-filters.tsx';
import { useStorageParams } from './use-storage-params.ts';
import { summarize } from './usage-summary.ts';
import { UsageTable } from './usage-table.tsx';
import { UsageTotals } from './usage-totals.tsx';

export function Component() {
  const client = useHubClient();
  const [params, update] = useStorageParams();
  const me = useQuery(whoamiQuery(client));
  const usage = useQuery({
    ...repositoryUsageQuery(client, {
      ...(params.org ? { org: params.org } : {}),
      sort: params.sort,
      direction: params.direction,
      ...(params.search ? { search: params.search } : {}),
      ...(params.type ? { type: params.type } : {}),
      ...(params.limit ? { limit: params.limit } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const summary = useMemo(() => summarize(usage.data ?? []), [usage.data]);
  const owner = params.org || me.data?.name || 'you';
  return (
    <>
      <PageHeader title="Storage" description={`Repository storage for ${owner}. Sizes are in bytes (decimal units).`} />
      <StorageFilters params={params} onChange={update} me={me.data?.name ?? 'Me'} orgs={me.data?.orgs ?? []} />
      {usage.isPending && <Skeleton label="Loading repository usage" />}
      {usage.isError && <ErrorPanel error={usage.error} title="Could not load repository usage" onRetry={() => void usage.refetch()} />}
      {usage.data && (
        <div className={`space-y-6 ${usage.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={usage.isFetching}>
          <UsageTotals summary={summary} />
          {usage.data.length === 0 ? (
            <EmptyState title="No repositories match">Change the search or type filter.</EmptyState>
          ) : (
            <>
              <StorageCharts summary={summary} />
              <UsageTable rows={usage.data} params={params} onChange={update} />
            </>
          )}
        </div>
      )}
    </>
  );
}
