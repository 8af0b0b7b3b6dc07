import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useHubClient } from '../../components/session/session-context.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { notificationsQuery } from '../../hub/queries.ts';
import type { NotificationFilters } from '../../hub/schemas/index.ts';
import { FilterBar } from './filter-bar.tsx';
import { InboxBody } from './inbox-body.tsx';
import { InboxCounts } from './inbox-counts.tsx';
import { useInboxFilters } from './use-inbox-filters.ts';

export function Component() {
  const { filters, page, invalid, setFilters, setPage } = useInboxFilters();
  const urlKey = JSON.stringify([filters, page]);
  return (
    <>
      <PageHeaderWithCounts filters={filters} page={page} />
      {invalid.length > 0 && (
        <p role="status" className="mb-3 text-sm text-accent">
          Ignored invalid filter{invalid.length === 1 ? '' : 's'} in the address: {invalid.join(', ')}.
        </p>
      )}
      <FilterBar key={JSON.stringify(filters)} filters={filters} onChange={setFilters} />
      <InboxBody urlKey={urlKey} filters={filters} page={page} setPage={setPage} />
    </>
  );
}

function PageHeaderWithCounts({ filters, page }: { filters: Omit<NotificationFilters, 'p'>; page: number }) {
  const client = useHubClient();
  const list = useQuery({ ...notificationsQuery(client, { ...filters, p: page }), placeholderData: keepPreviousData });
  return <PageHeader title="Inbox" description={<InboxCounts count={list.data?.count} failed={list.isError} />} />;
}
