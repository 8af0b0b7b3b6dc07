import { Button } from '../../components/ui/button.tsx';
import type { Selection } from './use-selection.ts';

interface Props {
  selection: Selection;
  pageIds: string[];
  matching: number;
  busy: boolean;
  onRead(): void;
  onUnread(): void;
  onDelete(): void;
}

/** Select-all checkbox, the "all matching the filters" offer, and the actions. */
export function BulkBar({ selection, pageIds, matching, busy, onRead, onUnread, onDelete }: Props) {
  const picked = selection.allMatching ? matching : selection.ids.size;
  const wholePage = pageIds.length > 0 && pageIds.every((id) => selection.ids.has(id));
  const some = selection.ids.size > 0 && !wholePage;
  return (
    <div
      className="mb-2 flex min-h-10 flex-wrap items-center gap-2 rounded-md bg-subtle px-3 py-1.5 text-sm"
      data-testid="bulk-bar"
    >
      <input
        type="checkbox"
        aria-label="Select all on this page"
        className="h-4 w-4 accent-amber-600"
        checked={wholePage || selection.allMatching}
        ref={(el) => {
          if (el) el.indeterminate = some && !selection.allMatching;
        }}
        onChange={(e) => selection.setPage(pageIds, e.target.checked)}
        disabled={pageIds.length === 0}
      />
      <span aria-live="polite" data-testid="selection-summary">
        {picked === 0
          ? 'Nothing selected'
          : selection.allMatching
            ? `All ${matching} matching the filters selected`
            : `${picked} selected`}
      </span>
      {wholePage && !selection.allMatching && matching > pageIds.length && (
        <Button variant="ghost" onClick={selection.selectAllMatching} className="underline">
          Select all {matching} matching the filters
        </Button>
      )}
      {picked > 0 && (
        <span className="ml-auto flex gap-2">
          <Button onClick={onRead} disabled={busy}>
            Mark read
          </Button>
          <Button onClick={onUnread} disabled={busy}>
            Mark unread
          </Button>
          <Button variant="danger" onClick={onDelete} disabled={busy}>
            Delete…
          </Button>
          <Button variant="ghost" onClick={selection.clear}>
            Clear
          </Button>
        </span>
      )}
    </div>
  );
}
