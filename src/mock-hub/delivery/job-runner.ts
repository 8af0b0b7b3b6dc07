import { Job, isTerminalStage, type JobPrincipal, type JobStage, type JobStatus } from '../../hub/schemas/job.ts';
import { newId24 } from './ids.ts';
import { JobLogBook, STARTED_BANNER, commandLine, logLinesFromRecord } from './job-logs.ts';
import { DEFAULT_JOB_TIMING, planFromEnvironment, type JobPlan, type JobTiming } from './job-switches.ts';
import { exposeUrl, labelTags, sshUrl, type JobTemplate } from './job-template.ts';

export type Principal = Required<JobPrincipal>;

export interface JobRunnerOptions {
  /** Inserts or replaces the job in the store. */
  save(job: Job): void;
  /** The stored job: the runner goes on from what is stored, and stops once it is gone. */
  load?(id: string): Job | undefined;
  timing?: Partial<JobTiming>;
  now?: () => Date;
}

const secs = (ms: number) => Math.max(0, Math.round(ms)) / 1000;

/**
 * Durations as the real hub reports them (huggingface_hub's JobDurations: recomputed on each
 * request while the job is in progress): scheduling until the first start, running from then
 * (retries included), total since creation; `end` is `finishedAt`, or now for a live job.
 */
export function jobDurations(job: Pick<Job, 'createdAt' | 'startedAt'>, end: Date): NonNullable<Job['durations']> {
  const created = Date.parse(job.createdAt);
  const total = secs(end.getTime() - created);
  if (!job.startedAt) return { schedulingSecs: total, totalSecs: total };
  const started = Date.parse(job.startedAt);
  return { schedulingSecs: secs(started - created), runningSecs: secs(end.getTime() - started), totalSecs: total };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function payloadSummary(payloadJson: string): string | undefined {
  try {
    const p = JSON.parse(payloadJson) as {
      event?: { scope?: string; action?: string };
      repo?: { type?: string; name?: string };
    };
    return `WEBHOOK_PAYLOAD: ${p.event?.scope}.${p.event?.action} on ${p.repo?.type} ${p.repo?.name}`;
  } catch {
    return undefined;
  }
}

/**
 * Creates jobs and moves them through their stages on timers:
 * SCHEDULING -> RUNNING -> COMPLETED; a failed attempt goes back to SCHEDULING while attempts
 * remain (`retry` and `status.failureCount` count them), else ERROR; `cancel` ends a scheduled or
 * running job in CANCELED. Each stage change is saved; the log is written as the job runs.
 */
export class JobRunner {
  readonly logs = new JobLogBook();
  private readonly timers = new Map<string, Set<NodeJS.Timeout>>();
  private readonly known = new Map<string, Job>();
  private readonly timing: JobTiming;
  private readonly now: () => Date;

  constructor(private readonly options: JobRunnerOptions) {
    this.timing = { ...DEFAULT_JOB_TIMING, ...options.timing };
    this.now = options.now ?? (() => new Date());
  }

  start(template: JobTemplate, payloadJson: string, owner: Principal, createdBy: Principal = owner): Job {
    const id = newId24();
    const tags = [...(template.tags ?? []), ...labelTags(template.labels)];
    const status: JobStatus = dropUndefined({
      stage: 'SCHEDULING' as const,
      message: null,
      failureCount: 0,
      exposeUrls: template.exposePorts?.length ? template.exposePorts.map((p) => exposeUrl(id, p)) : undefined,
      sshUrl: template.ssh ? sshUrl(id) : undefined,
    });
    const job = Job.parse(
      dropUndefined({
        id,
        createdAt: this.now().toISOString(),
        owner,
        createdBy,
        dockerImage: template.dockerImage,
        spaceId: template.spaceId,
        command: template.command,
        arguments: template.arguments,
        arch: template.arch,
        timeout: template.timeout,
        volumes: template.volumes,
        flavor: template.flavor,
        environment: { ...template.environment, WEBHOOK_PAYLOAD: payloadJson },
        // Secret values never leave the webhook; the job lists names only.
        secrets: Object.fromEntries(template.secretNames.map((name) => [name, null])),
        tags: tags.length ? tags : undefined,
        retry: 0,
        status,
      }),
    );
    this.save(job);
    const planned = planFromEnvironment(template.environment, this.timing);
    if (!planned.ok) {
      this.after(id, this.timing.schedulingMs, () => this.finishIf(id, 'SCHEDULING', 'ERROR', planned.message));
      return job;
    }
    this.schedule(id, template, planned.plan, 1, payloadSummary(payloadJson));
    return job;
  }

  /** Ends a scheduled or running job in CANCELED; a finished job is returned as it is. Undefined: no such job. */
  cancel(id: string, by: string): Job | undefined {
    const job = this.load(id);
    if (!job || isTerminalStage(job.status.stage)) return job;
    const message = `Canceled by ${by}`;
    // A job this runner did not start (seeded, or from before a restart) keeps the log its record tells.
    if (!this.logs.read(id))
      for (const e of logLinesFromRecord(job)) this.logs.append(id, e.data, new Date(e.timestamp));
    this.logs.append(id, message, this.now());
    return this.finish(job, 'CANCELED', message);
  }

  /** Stops pending stage changes and ends every log stream (hub shutdown). */
  close(): void {
    for (const set of this.timers.values()) for (const t of set) clearTimeout(t);
    this.timers.clear();
    this.logs.endAll();
  }

  private schedule(id: string, t: JobTemplate, plan: JobPlan, attempt: number, summary?: string): void {
    this.after(id, plan.schedulingMs, () => this.run(id, t, plan, attempt, summary));
  }

  private run(id: string, t: JobTemplate, plan: JobPlan, attempt: number, summary?: string): void {
    const job = this.current(id, 'SCHEDULING');
    if (!job) return;
    const at = this.now();
    const startedAt = job.startedAt ?? at.toISOString();
    this.save(
      this.withStatus(
        { ...job, startedAt, durations: jobDurations({ createdAt: job.createdAt, startedAt }, at) },
        { stage: 'RUNNING', message: null },
      ),
    );
    this.logs.append(
      id,
      attempt === 1
        ? `${STARTED_BANNER} at ${at.toISOString()} =====`
        : `===== Attempt ${attempt} of ${t.attempts} =====`,
      at,
    );
    this.logs.append(id, `Running ${commandLine(job)}`, at);
    if (summary && attempt === 1) this.logs.append(id, summary, at);
    const timeoutMs = t.timeout === undefined ? Infinity : t.timeout * 1000;
    const timedOut = plan.runningMs > timeoutMs;
    let ticks = 0;
    // The end is set first so that a tick falling due at the same moment comes after it (and is cleared).
    this.after(id, Math.min(plan.runningMs, timeoutMs), () => {
      this.clear(id, ticker);
      const failure = timedOut
        ? `Timed out after ${t.timeout} s`
        : plan.fails(attempt)
          ? 'Process exited with code 1'
          : null;
      this.endAttempt(id, t, plan, attempt, failure);
    });
    const ticker = this.every(id, this.timing.tickMs, () => {
      ticks++;
      this.logs.append(id, `still running (${secs(ticks * this.timing.tickMs)} s)`, this.now());
    });
  }

  private endAttempt(id: string, t: JobTemplate, plan: JobPlan, attempt: number, failure: string | null): void {
    const job = this.current(id, 'RUNNING');
    if (!job) return;
    this.logs.append(id, failure ?? 'Process exited with code 0', this.now());
    if (failure === null) return void this.finish(job, 'COMPLETED', null);
    const failed = { ...job, status: { ...job.status, failureCount: (job.status.failureCount ?? 0) + 1 } };
    if (attempt >= t.attempts) {
      return void this.finish(
        failed,
        'ERROR',
        t.attempts > 1 ? `${failure} (attempt ${attempt} of ${t.attempts}, no retries left)` : failure,
      );
    }
    const message = `Attempt ${attempt} of ${t.attempts} failed (${failure}); retrying`;
    this.save(this.withStatus({ ...failed, retry: attempt }, { stage: 'SCHEDULING', message }));
    this.schedule(id, t, plan, attempt + 1);
  }

  private finishIf(id: string, expected: JobStage, stage: JobStage, message: string): void {
    const job = this.current(id, expected);
    if (!job) return;
    this.logs.append(id, message, this.now());
    this.finish(job, stage, message);
  }

  private finish(job: Job, stage: JobStage, message: string | null): Job {
    const end = this.now();
    const done = this.withStatus(
      { ...job, finishedAt: end.toISOString(), durations: jobDurations(job, end) },
      { stage, message },
    );
    this.save(done);
    for (const t of this.timers.get(job.id) ?? []) clearTimeout(t);
    this.timers.delete(job.id);
    this.logs.end(job.id);
    return done;
  }

  /** The stored job if it is still in `expected` (a cancel, or a delete, moves it on). */
  private current(id: string, expected: JobStage): Job | undefined {
    const job = this.load(id);
    return job?.status.stage === expected ? job : undefined;
  }

  private load(id: string): Job | undefined {
    return this.options.load ? this.options.load(id) : this.known.get(id);
  }

  private save(job: Job): void {
    if (!this.options.load) this.known.set(job.id, job);
    this.options.save(job);
  }

  private withStatus(job: Job, change: Pick<JobStatus, 'stage' | 'message'>): Job {
    return Job.parse({ ...job, status: { ...job.status, ...change } });
  }

  private track(id: string, t: NodeJS.Timeout): NodeJS.Timeout {
    t.unref();
    const set = this.timers.get(id) ?? new Set();
    set.add(t);
    this.timers.set(id, set);
    return t;
  }

  private clear(id: string, t: NodeJS.Timeout): void {
    clearTimeout(t);
    this.timers.get(id)?.delete(t);
  }

  /** A timer has no caller to report to: a failed stage change is logged, never thrown. */
  private guarded(fn: () => void): () => void {
    return () => {
      try {
        fn();
      } catch (err) {
        console.error('mock hub: webhook job stage change failed', err);
      }
    };
  }

  private after(id: string, ms: number, fn: () => void): void {
    const t = setTimeout(
      this.guarded(() => {
        this.timers.get(id)?.delete(t);
        fn();
      }),
      ms,
    );
    this.track(id, t);
  }

  /** Node's clearTimeout also clears intervals. */
  private every(id: string, ms: number, fn: () => void): NodeJS.Timeout {
    return this.track(id, setInterval(this.guarded(fn), ms));
  }
}
