import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useHubClient } from '../../components/session/session-context.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { formatDateTime, formatRelative } from '../../components/ui/format.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SimpleTable } from '../../components/ui/simple-table.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { UnreadableItems } from '../../components/ui/unreadable.tsx';
import { webhooksQuery } from '../../hub/queries.ts';
import { splitReadable } from '../../hub/tolerant-response.ts';
import { StateBadge } from './state-badge.tsx';
import { describeTarget } from './webhook-target.ts';
import { TextLink } from '../../components/ui/text-link.tsx';

const newLink =
  'inline-flex items-center rounded-md bg-amber-500 px-3 py-1.5 text-sm font-medium text-slate-950 hover:bg-amber-400';

export function WebhookList() {
  const client = useHubClient();
  const q = useQuery(webhooksQuery(client));
  const { items, unreadable } = splitReadable(q.data);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Deliver repository and discussion events to a URL, or start a job for each one."
        actions={
          <Link to="new" className={newLink}>
            New webhook
          </Link>
        }
      />
      {q.isPending && <Skeleton label="Loading webhooks" />}
      {q.isError && <ErrorPanel error={q.error} title="Could not load webhooks" onRetry={() => void q.refetch()} />}
      <UnreadableItems items={unreadable} what="webhook" />
      {q.data?.length === 0 && (
        <EmptyState title="No webhooks yet">Create one to get events as they happen.</EmptyState>
      )}
      {items.length > 0 && (
        <SimpleTable columns={['Target', 'Watching', 'Domains', 'State', 'Last trigger']}>
          {items.map((w) => (
            <tr key={w.id} className="border-t border-border" data-testid="webhook-row">
              <td className="max-w-xs px-3 py-2">
                <TextLink to={w.id} className="block truncate font-medium" underline="hover">
                  {describeTarget(w)}
                </TextLink>
              </td>
              <td className="px-3 py-2">{w.watched.map((x) => `${x.type}:${x.name}`).join(', ')}</td>
              <td className="px-3 py-2">{w.domains.join(', ')}</td>
              <td className="px-3 py-2">
                <StateBadge disabled={w.disabled} />
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {w.lastTriggerAt ? (
                  <time dateTime={w.lastTriggerAt} title={formatDateTime(w.lastTriggerAt)}>
                    {formatRelative(w.lastTriggerAt)}
                  </time>
                ) : (
                  'Never'
                )}
              </td>
            </tr>
          ))}
        </SimpleTable>
      )}
    </>
  );
}
