import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { describeError } from '../../components/ui/describe-error.ts';
import { Field, inputClass } from '../../components/ui/field.tsx';
import { useReplayDelivery } from './use-webhook-mutations.ts';

/** Replay of a delivery the user knows the log id of, for a hub that does not list deliveries. */
export function ReplayById({ webhookId }: { webhookId: string }) {
  const replay = useReplayDelivery(webhookId);
  const [logId, setLogId] = useState('');
  const [error, setError] = useState<string | null>(null);
  function submit(e: FormEvent) {
    e.preventDefault();
    const id = logId.trim();
    if (!id) return setError('Enter the log id of a delivery');
    setError(null);
    replay.mutate(id);
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Replay a delivery" className="flex flex-wrap items-end gap-2">
      <div className="min-w-64 flex-1">
        <Field label="Delivery log id" error={error}>
          {(p) => (
            <input
              {...p}
              className={`${inputClass} font-mono`}
              value={logId}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => setLogId(e.target.value)}
            />
          )}
        </Field>
      </div>
      <Button type="submit" disabled={replay.isPending}>
        {replay.isPending ? 'Replaying…' : 'Replay'}
      </Button>
      <p role="status" className="w-full text-sm" data-testid="replay-result">
        {replay.isSuccess && `Replayed ${replay.variables}: HTTP ${replay.data.status}`}
        {replay.isError && <span className="text-danger">Replay failed: {describeError(replay.error).message}</span>}
      </p>
    </form>
  );
}
