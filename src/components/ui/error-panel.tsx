import { HubSchemaError } from '../../hub/errors.ts';
import { describeError } from './describe-error.ts';
import { Button } from './button.tsx';
import { UnreadableRecord } from './unreadable.tsx';

/** The hub's message and request id, with a retry button; an answer that could not be read also shows what did read. */
export function ErrorPanel({
  error,
  onRetry,
  title = 'Something went wrong',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const d = describeError(error);
  return (
    <div
      role="alert"
      className="rounded-lg border border-danger-border bg-danger-soft p-4 text-sm text-danger-strong"
      data-testid="error-panel"
    >
      <p className="font-semibold">{d.status ? `${title} (HTTP ${d.status})` : title}</p>
      <p className="mt-1 break-words">{d.message}</p>
      {error instanceof HubSchemaError && error.answer && (
        <UnreadableRecord issues={error.issues} raw={error.answer.raw} fields={error.answer.fields} />
      )}
      {d.requestId && (
        <p className="mt-1 text-xs">
          Request id:{' '}
          <code className="select-all" data-testid="request-id">
            {d.requestId}
          </code>
        </p>
      )}
      {onRetry && (
        <Button className="mt-3" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}
