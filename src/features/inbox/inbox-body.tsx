import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { hubSiteUrl } from '../../components/session/proxied-hub.ts';
import { useHubClient, useSession } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import { notificationsQuery } from '../../hub/queries.ts';
import { NOTIFICATIONS_PAGE_SIZE, type NotificationFilters } from '../../hub/schemas/index.ts';
import { BulkBar } from './bulk-bar.tsx';
import { targetSize, type BulkTarget } from './bulk-target.ts';
import { MarkAllRead } from './mark-all-read.tsx';
import { NewNotificationsBanner } from './new-notifications-banner.tsx';
import { NotificationList } from './notification-list.tsx';
import { viewOf } from './notification-view.ts';
import { Pagination } from './pagination.tsx';
import { useBulkActions, type BulkAction } from './use-bulk-actions.ts';
import { useInboxKeys } from './use-inbox-keys.ts';
import { useKeyedState } from './use-keyed-state.ts';
import { useNewNotifications } from './use-new-notifications.ts';
import { usePrefetchNextPage } from './use-prefetch-next-page.ts';
import { useSelection } from './use-selection.ts';

const actionTitles: Record<BulkAction['type'], string> = {
  read: 'Could not mark as read; the change was undone',
  unread: 'Could not mark as unread; the change was undone',
  delete: 'Could not delete; the notifications were restored',
};

interface BodyProps {
  urlKey: string;
  filters: Omit<NotificationFilters, 'p'>;
  page: number;
  setPage(p: number): void;
}

/** The list with its selection, bulk actions, shortcuts and pagination for one filtered view. */
export function InboxBody({ urlKey, filters, page, setPage }: BodyProps) {
  const client = useHubClient();
  const { session } = useSession();
  const list = useQuery({ ...notificationsQuery(client, { ...filters, p: page }), placeholderData: keepPreviousData });
  const selection = useSelection(urlKey);
  const bulk = useBulkActions();
  const [active, setActive] = useKeyedState(urlKey, () => 0);
  const [focusTick, setFocusTick] = useState(0);
  const [confirmDelete, setConfirmDelete] = useState<BulkTarget | null>(null);

  const rows = useMemo(
    () => (list.data?.notifications ?? []).map((notification) => ({ notification, view: viewOf(notification) })),
    [list.data],
  );
  const pageIds = rows.map((r) => r.view.id);
  const matching = list.data?.count.view ?? 0;
  usePrefetchNextPage(filters, page, !list.isPlaceholderData && (page + 1) * NOTIFICATIONS_PAGE_SIZE < matching);
  const fresh = useNewNotifications(filters, page, setPage);

  function currentTarget(): BulkTarget | null {
    if (selection.allMatching) return { kind: 'all', filters, visibleIds: pageIds, count: matching };
    if (selection.ids.size > 0) return { kind: 'ids', ids: [...selection.ids] };
    const focused = rows[active];
    return focused ? { kind: 'ids', ids: [focused.view.id] } : null;
  }
  function run(type: BulkAction['type'], target: BulkTarget | null) {
    if (!target) return;
    bulk.mutate({ type, target }, { onSuccess: () => type === 'delete' && selection.clear() });
  }

  useInboxKeys({
    move: (d) => {
      setActive((i) => Math.min(Math.max(0, i + d), Math.max(0, rows.length - 1)));
      setFocusTick((t) => t + 1);
    },
    toggle: () => rows[active] && selection.toggle(rows[active].view.id),
    read: () => run('read', currentTarget()),
    unread: () => run('unread', currentTarget()),
    focusFilters: () => document.getElementById('f-repoName')?.focus(),
    clear: selection.clear,
    open: () => document.querySelector<HTMLAnchorElement>(`[data-id="${rows[active]?.view.id}"] a[data-open]`)?.click(),
  });

  function markOpened(id: string) {
    const row = rows.find((r) => r.view.id === id);
    if (row && !row.notification.read) run('read', { kind: 'ids', ids: [id] });
  }

  const lastAction = bulk.variables?.type;
  return (
    <section aria-label="Notification list">
      {bulk.isError && lastAction && (
        <div className="mb-3">
          <ErrorPanel
            error={bulk.error}
            title={actionTitles[lastAction]}
            onRetry={() => bulk.variables && bulk.mutate(bulk.variables)}
          />
          <Button variant="ghost" className="mt-1" onClick={() => bulk.reset()}>
            Dismiss
          </Button>
        </div>
      )}
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <NewNotificationsBanner count={fresh.count} onShow={fresh.show} />
        <MarkAllRead
          filters={filters}
          busy={bulk.isPending}
          run={(action, onSuccess) => bulk.mutate(action, { onSuccess })}
        />
      </div>
      <BulkBar
        selection={selection}
        pageIds={pageIds}
        matching={matching}
        busy={bulk.isPending}
        onRead={() => run('read', currentTarget())}
        onUnread={() => run('unread', currentTarget())}
        onDelete={() => setConfirmDelete(currentTarget())}
      />
      {list.isPending ? (
        <Skeleton rows={8} label="Loading notifications" />
      ) : list.isError && !list.data ? (
        <ErrorPanel error={list.error} title="Could not load notifications" onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title={page > 0 ? 'Nothing on this page' : 'No notifications match these filters'}>
          {page > 0 ? (
            <Button className="mt-2" onClick={() => setPage(0)}>
              Go to the first page
            </Button>
          ) : (
            'Try clearing some filters.'
          )}
        </EmptyState>
      ) : (
        <div aria-busy={list.isFetching} className={list.isPlaceholderData ? 'opacity-60' : ''}>
          {list.isError && (
            <ErrorPanel
              error={list.error}
              title="Could not refresh notifications"
              onRetry={() => void list.refetch()}
            />
          )}
          <NotificationList
            rows={rows}
            hubUrl={hubSiteUrl(session?.baseUrl ?? '')}
            selected={selection.ids}
            allSelected={selection.allMatching}
            active={active}
            focusActive={focusTick}
            onActive={setActive}
            onToggle={selection.toggle}
            onOpen={markOpened}
          />
        </div>
      )}
      <UnreadableItems items={list.data?.unreadable ?? []} what="notification" />
      <Pagination page={page} total={matching} onPage={setPage} />
      <ConfirmDialog
        open={confirmDelete !== null}
        title="Delete notifications?"
        confirmLabel="Delete"
        danger
        onCancel={() => setConfirmDelete(null)}
        onConfirm={() => {
          run('delete', confirmDelete);
          setConfirmDelete(null);
        }}
      >
        {confirmDelete &&
          `This deletes ${targetSize(confirmDelete)} notification${targetSize(confirmDelete) === 1 ? '' : 's'} from the hub. It cannot be undone.`}
      </ConfirmDialog>
    </section>
  );
}
