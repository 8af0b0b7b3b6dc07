import type { NotificationList } from '../../hub/schemas/index.ts';

export function InboxCounts({ count, failed }: { count: NotificationList['count'] | undefined; failed?: boolean }) {
  if (!count) return <span>{failed ? 'Counts unavailable' : 'Loading counts…'}</span>;
  return (
    <span data-testid="counts">
      <span data-testid="count-view">{count.view}</span> in view ·{' '}
      <span data-testid="count-unread">{count.unread}</span> unread · <span data-testid="count-all">{count.all}</span>{' '}
      in all
    </span>
  );
}
