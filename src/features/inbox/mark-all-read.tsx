import { useState } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import type { NotificationFilters } from '../../hub/schemas/index.ts';
import { collectUnreadIds, UNDO_LIMIT } from './collect-unread.ts';
import type { BulkAction } from './use-bulk-actions.ts';

type Filters = Omit<NotificationFilters, 'p'>;
type Run = (action: BulkAction, onSuccess: () => void) => void;

type State =
  | { step: 'idle' }
  | { step: 'collecting' }
  | { step: 'confirm' }
  | { step: 'done'; ids: string[] | null; undone?: boolean }
  | { step: 'nothing' }
  | { step: 'failed'; message: string };

/**
 * "Mark all as read" for the current filters: one mark-as-read call with applyToAll. The unread
 * ids are read first, so Undo marks exactly those unread again, and nothing that was read before.
 */
export function MarkAllRead({ filters, busy, run }: { filters: Filters; busy: boolean; run: Run }) {
  const client = useHubClient();
  const [state, setState] = useState<State>({ step: 'idle' });

  const markAll = (ids: string[] | null) =>
    run({ type: 'read', target: { kind: 'all', filters, visibleIds: [], count: ids?.length ?? UNDO_LIMIT } }, () =>
      setState({ step: 'done', ids }),
    );

  async function start() {
    setState({ step: 'collecting' });
    try {
      const ids = await collectUnreadIds((q) => client.listNotifications(q), filters);
      if (ids?.length === 0) setState({ step: 'nothing' });
      else if (ids === null) setState({ step: 'confirm' });
      else markAll(ids);
    } catch (e) {
      setState({ step: 'failed', message: describeError(e).message });
    }
  }
  const undo = (ids: string[]) =>
    run({ type: 'unread', target: { kind: 'ids', ids } }, () => setState({ step: 'done', ids, undone: true }));

  return (
    <div className="ml-auto flex items-center gap-2 text-sm">
      <span role="status" data-testid="mark-all-status">
        {state.step === 'nothing' && 'Nothing unread here.'}
        {state.step === 'failed' && (
          <span className="text-danger">Could not read the unread notifications: {state.message}</span>
        )}
        {state.step === 'done' &&
          !state.undone &&
          (state.ids ? `Marked ${state.ids.length} as read.` : 'Marked all as read.')}
        {state.step === 'done' && state.undone && `Marked ${state.ids?.length} as unread again.`}
      </span>
      {state.step === 'done' && state.ids && !state.undone && (
        <Button onClick={() => undo(state.ids!)} disabled={busy}>
          Undo
        </Button>
      )}
      <Button onClick={() => void start()} disabled={busy || state.step === 'collecting'}>
        {state.step === 'collecting' ? 'Marking…' : 'Mark all as read'}
      </Button>
      <ConfirmDialog
        open={state.step === 'confirm'}
        title="Mark all as read?"
        confirmLabel="Mark all as read"
        onCancel={() => setState({ step: 'idle' })}
        onConfirm={() => {
          setState({ step: 'idle' });
          markAll(null);
        }}
      >
        More than {UNDO_LIMIT} unread notifications match these filters, so this cannot be undone from here.
      </ConfirmDialog>
    </div>
  );
}
