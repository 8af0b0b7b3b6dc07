import { Button } from '../../components/ui/button.tsx';

function list(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * Says which stored job settings the editor cannot show (the hub does not return them) and, once
 * the job is changed, that saving replaces them with what the form shows, before anything is sent.
 */
export function StoredJobNotice({
  touched,
  hidden,
  secrets,
  onKeep,
}: {
  touched: boolean;
  hidden: string[];
  secrets: string[];
  onKeep(): void;
}) {
  const secretText = secrets.length ? ` and the values of the secrets ${list(secrets)}` : '';
  if (!touched) {
    return (
      <p
        className="rounded-md border border-border bg-surface-muted p-3 text-xs text-soft"
        data-testid="stored-job-notice"
        data-touched="false"
      >
        The hub does not return the stored job&apos;s {list(hidden)}
        {secretText}, so the fields below show defaults. They are kept as stored as long as you do not change the job.
      </p>
    );
  }
  return (
    <div
      role="alert"
      className="rounded-md border border-warning-border bg-warning-soft p-3 text-sm text-accent-strong"
      data-testid="stored-job-notice"
      data-touched="true"
    >
      <p>
        You changed the job: saving replaces the whole stored job. Its {list(hidden)} become what this form shows (the
        hub does not return the stored values){secrets.length ? `; enter the values of ${list(secrets)} again` : ''}.
      </p>
      <Button className="mt-2" onClick={onKeep}>
        Keep the stored job
      </Button>
    </div>
  );
}
