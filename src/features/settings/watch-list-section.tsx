import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { NotExposedNote } from '../../components/ui/not-exposed-note.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { isEndpointNotExposed } from '../../hub/errors.ts';
import type { WatchItem } from '../../hub/schemas/index.ts';
import { AddWatchForm } from './add-watch-form.tsx';
import { useWatchList } from './use-watch-list.ts';

const typeLabel = { user: 'User', org: 'Organization', repo: 'Repository' } as const;

export function WatchListSection() {
  const { list, change } = useWatchList();
  // What this page changed, for a hub that does not expose the list itself.
  const [done, setDone] = useState<string[]>([]);
  const watched = list.data?.watched ?? [];
  const notExposed = isEndpointNotExposed(list.error) ? list.error : null;
  const run = (c: { add: WatchItem[]; delete: WatchItem[] }) => {
    const [item, verb] = c.add[0] ? [c.add[0], 'Now watching'] : [c.delete[0]!, 'Stopped watching'];
    change.mutate(c, {
      onSuccess: () => setDone((d) => [`${verb} ${typeLabel[item.type].toLowerCase()} ${item.id}`, ...d]),
    });
  };
  return (
    <section aria-labelledby="watch-heading" className="mb-10">
      <h2 id="watch-heading" className="mb-1 text-lg font-semibold">
        Watch list
      </h2>
      <p className="mb-3 text-sm text-muted">
        Users, organizations and repositories whose discussions reach your inbox.
      </p>
      {change.isError && (
        <div className="mb-3">
          <ErrorPanel
            error={change.error}
            title="Could not update the watch list; the change was undone"
            onRetry={() => change.variables && change.mutate(change.variables)}
          />
        </div>
      )}
      {notExposed && (
        <NotExposedNote error={notExposed}>
          add or stop watching a user, organization or repository by its name.
        </NotExposedNote>
      )}
      <AddWatchForm
        existing={watched}
        busy={change.isPending}
        onAdd={(item) => run({ add: [item], delete: [] })}
        {...(notExposed ? { onRemove: (item: WatchItem) => run({ add: [], delete: [item] }) } : {})}
      />
      <div className="mt-4">
        {notExposed ? (
          done.length > 0 && (
            <ul role="status" aria-label="Changes made here" className="space-y-1 text-sm" data-testid="watch-changes">
              {done.map((line, i) => (
                <li key={done.length - i}>{line}</li>
              ))}
            </ul>
          )
        ) : list.isPending ? (
          <Skeleton rows={3} label="Loading watch list" />
        ) : list.isError ? (
          <ErrorPanel error={list.error} title="Could not load the watch list" onRetry={() => void list.refetch()} />
        ) : watched.length === 0 ? (
          <EmptyState title="You are not watching anything yet">
            Add a user, organization or repository above.
          </EmptyState>
        ) : (
          <ul
            className="divide-y divide-border rounded-lg border border-border"
            aria-label="Watched"
            data-testid="watch-list"
          >
            {watched.map((w) => (
              <li
                key={`${w.type}:${w.id}`}
                className="flex items-center gap-3 px-3 py-2 text-sm"
                data-testid="watch-item"
              >
                <span className="w-28 shrink-0 text-xs font-medium text-muted">{typeLabel[w.type]}</span>
                <span className="flex-1 truncate font-mono">{w.id}</span>
                <Button
                  variant="ghost"
                  onClick={() => run({ add: [], delete: [w] })}
                  aria-label={`Stop watching ${typeLabel[w.type].toLowerCase()} ${w.id}`}
                >
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
