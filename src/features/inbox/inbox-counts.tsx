import type { NotificationList } from '../../hub/schemas/index.ts';

export function InboxCounts({ count }: { count: NotificationList['count'] | undefined }) {
  if (!count) return <span>Loading counts…</span>;
  return (
    <span data-testid="counts">
      <span data-testid="count-view">{count.view}</span> in view · <span data-testid="count-unread">{count.unread}</span> unread ·{' '}
      <span data-testid="count-all">{count.all}</span> in all
    </span>
  );
}
