import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/error-panel.tsx';
import { useJobLogs, type LogStatus } from './use-job-logs.ts';

/** Local wall-clock time of a log line, like the other times on the page. */
const clock = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString('en-GB', { hour12: false });
};

const STATUS_TEXT: Record<LogStatus, string> = {
  streaming: 'Following: new lines appear as the job writes them.',
  ended: 'The job has ended; this is its whole log.',
  stopped: 'Not following. Follow again to read the log from the start.',
  error: 'The log stream broke off.',
};

/** The job's log, followed live until the job ends (or the user stops following). */
export function JobLogsSection({ namespace, jobId }: { namespace: string; jobId: string }) {
  const [follow, setFollow] = useState(true);
  const [round, setRound] = useState(0);
  const logs = useJobLogs(namespace, jobId, follow, round);
  const box = useRef<HTMLPreElement>(null);
  const atBottom = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [logs.lines]);
  const restart = () => {
    setFollow(true);
    setRound((r) => r + 1);
  };
  return (
    <section aria-labelledby="job-logs-title">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="job-logs-title" className="text-lg font-semibold">
          Logs
        </h2>
        <div className="flex gap-2">
          {logs.status === 'streaming' ? (
            <Button onClick={() => setFollow(false)}>Stop following</Button>
          ) : (
            <Button onClick={restart}>{logs.status === 'ended' ? 'Reload logs' : 'Follow logs'}</Button>
          )}
        </div>
      </div>
      <p role="status" className="mb-2 text-xs text-muted" data-testid="log-status" data-status={logs.status}>
        {STATUS_TEXT[logs.status]} {logs.lines.length} line{logs.lines.length === 1 ? '' : 's'}.
      </p>
      {logs.status === 'error' && <ErrorPanel error={logs.error} title="Could not read the log" onRetry={restart} />}
      <pre
        ref={box}
        tabIndex={0}
        aria-label="Job log"
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
        className="max-h-96 overflow-auto rounded-lg border border-border bg-slate-950 p-3 font-mono text-xs leading-5 text-slate-100"
        data-testid="job-log"
      >
        {logs.lines.length === 0 ? (
          <span className="text-slate-300">
            {logs.status === 'streaming' ? 'Waiting for the first line…' : 'No log lines.'}
          </span>
        ) : null}
        {logs.lines.map((l, i) => (
          <span key={i} className="block" data-testid="log-line">
            <time dateTime={l.timestamp} className="mr-3 select-none text-slate-400">
              {clock(l.timestamp)}
            </time>
            {l.data}
          </span>
        ))}
      </pre>
    </section>
  );
}
