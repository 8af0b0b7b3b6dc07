import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useHubClient } from '../../components/session/session-context.tsx';
import { hubKeys } from '../../hub/queries.ts';
import type { JobLogEvent } from '../../hub/schemas/index.ts';

/** Lines kept on the page; older ones scroll out. */
export const MAX_SHOWN_LINES = 5_000;

export type LogStatus = 'streaming' | 'ended' | 'stopped' | 'error';

export interface JobLogs {
  lines: JobLogEvent[];
  status: LogStatus;
  error: unknown;
}

/**
 * Follows a job's log over server-sent events while `follow` is on: what was logged so far, then
 * each new line as the job writes it. The hub ends the stream when the job ends; the job is then
 * read again so its stage catches up. Turning `follow` off (or leaving) closes the connection; a
 * new `round` reads the log again from the start.
 */
export function useJobLogs(namespace: string, jobId: string, follow: boolean, round = 0): JobLogs {
  const client = useHubClient();
  const queryClient = useQueryClient();
  const [logs, setLogs] = useState<JobLogs>({ lines: [], status: 'streaming', error: null });
  useEffect(() => {
    if (!follow) {
      setLogs((l) => (l.status === 'streaming' ? { ...l, status: 'stopped' } : l));
      return;
    }
    const ctrl = new AbortController();
    setLogs({ lines: [], status: 'streaming', error: null });
    void (async () => {
      try {
        for await (const e of client.streamJobLogs(namespace, jobId, {}, { signal: ctrl.signal })) {
          setLogs((l) => ({
            ...l,
            lines: l.lines.length >= MAX_SHOWN_LINES ? [...l.lines.slice(1 - MAX_SHOWN_LINES), e] : [...l.lines, e],
          }));
        }
        if (ctrl.signal.aborted) return;
        setLogs((l) => ({ ...l, status: 'ended' }));
        void queryClient.invalidateQueries({ queryKey: hubKeys.jobs.detail(namespace, jobId) });
      } catch (error) {
        if (!ctrl.signal.aborted) setLogs((l) => ({ ...l, status: 'error', error }));
      }
    })();
    return () => ctrl.abort();
  }, [client, queryClient, namespace, jobId, follow, round]);
  return logs;
}
