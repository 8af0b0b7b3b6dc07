import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { AddWatchForm } from './add-watch-form.tsx';
import { useWatchList } from './use-watch-list.ts';

const typeLabel = { user: 'User', org: 'Organization', repo: 'Repository' } as const;

export function WatchListSection() {
  const { list, change } = useWatchList();
  const watched = list.data?.watched ?? [];
  return (
    <section aria-labelledby="watch-heading" className="mb-10">
      <h2 id="watch-heading" className="mb-1 text-lg font-semibold">
        Watch list
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">Users, organizations and repositories whose discussions reach your inbox.</p>
      {change.isError && (
        <div className="mb-3">
          <ErrorPanel error={change.error} title="Could not update the watch list; the change was undone" onRetry={() => change.variables && change.mutate(change.variables)} />
        </div>
      )}
      <AddWatchForm existing={watched} busy={change.isPending} onAdd={(item) => change.mutate({ add: [item], delete: [] })} />
      <div className="mt-4">
        {list.isPending ? (
          <Skeleton rows={3} label="Loading watch list" />
        ) : list.isError ? (
          <ErrorPanel error={list.error} title="Could not load the watch list" onRetry={() => void list.refetch()} />
        ) : watched.length === 0 ? (
          <EmptyState title="You are not watching anything yet">Add a user, organization or repository above.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800" aria-label="Watched" data-testid="watch-list">
            {watched.map((w) => (
              <li key={`${w.type}:${w.id}`} className="flex items-center gap-3 px-3 py-2 text-sm" data-testid="watch-item">
                <span className="w-28 shrink-0 text-xs font-medium text-slate-600 dark:text-slate-400">{typeLabel[w.type]}</span>
                <span className="flex-1 truncate font-mono">{w.id}</span>
                <Button variant="ghost" onClick={() => change.mutate({ add: [], delete: [w] })} aria-label={`Stop watching ${typeLabel[w.type].toLowerCase()} ${w.id}`}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
