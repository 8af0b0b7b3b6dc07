import type { Job, JobLogEvent } from '../../hub/schemas/job.ts';

export const MAX_JOBS_WITH_LOGS = 1_000;
export const MAX_LINES_PER_JOB = 5_000;

/** The hub's first line of a job's log; huggingface_hub's `fetch_job_logs` leaves it out. */
export const STARTED_BANNER = '===== Job started';

export interface LogFollower {
  line(event: JobLogEvent): void;
  /** The job reached a terminal stage (or the hub closes): no more lines will come. */
  end(): void;
}

/**
 * Log lines of the jobs the runner drives, in memory and bounded (the oldest jobs' logs go
 * first; a job keeps its last lines). Followers get each new line as it is written.
 */
export class JobLogBook {
  private readonly lines = new Map<string, JobLogEvent[]>();
  private readonly followers = new Map<string, Set<LogFollower>>();

  append(jobId: string, text: string, at: Date): void {
    let list = this.lines.get(jobId);
    if (!list) {
      list = [];
      this.lines.set(jobId, list);
      if (this.lines.size > MAX_JOBS_WITH_LOGS) this.lines.delete(this.lines.keys().next().value!);
    }
    const event = { data: text, timestamp: at.toISOString() };
    list.push(event);
    if (list.length > MAX_LINES_PER_JOB) list.splice(0, list.length - MAX_LINES_PER_JOB);
    for (const f of this.followers.get(jobId) ?? []) f.line(event);
  }

  /** What was logged so far; undefined for a job the runner never ran (seeded, or before a restart). */
  read(jobId: string): JobLogEvent[] | undefined {
    return this.lines.get(jobId)?.slice();
  }

  follow(jobId: string, follower: LogFollower): () => void {
    const set = this.followers.get(jobId) ?? new Set();
    set.add(follower);
    this.followers.set(jobId, set);
    return () => {
      set.delete(follower);
      if (!set.size) this.followers.delete(jobId);
    };
  }

  /** Tells the job's followers it is over. */
  end(jobId: string): void {
    const set = this.followers.get(jobId);
    this.followers.delete(jobId);
    for (const f of set ?? []) f.end();
  }

  endAll(): void {
    for (const id of [...this.followers.keys()]) this.end(id);
  }
}

export function commandLine(job: Pick<Job, 'dockerImage' | 'spaceId' | 'command' | 'arguments'>): string {
  const image = job.dockerImage ?? (job.spaceId ? `hf.co/spaces/${job.spaceId}` : 'image');
  const argv = [...(job.command ?? []), ...(job.arguments ?? [])];
  return `${image}${argv.length ? ` $ ${argv.join(' ')}` : ''}`;
}

/** A job's log as its record tells it, for jobs whose lines are not in the book. */
export function logLinesFromRecord(job: Job): JobLogEvent[] {
  if (!job.startedAt) return [];
  const out: JobLogEvent[] = [
    { data: `${STARTED_BANNER} at ${job.startedAt} =====`, timestamp: job.startedAt },
    { data: `Running ${commandLine(job)}`, timestamp: job.startedAt },
  ];
  const end = job.finishedAt;
  if (end && job.status.stage === 'COMPLETED') out.push({ data: 'Process exited with code 0', timestamp: end });
  else if (end) out.push({ data: job.status.message ?? `Job ended: ${job.status.stage}`, timestamp: end });
  return out;
}
