import type { Flavor, Arch } from '../../hub/schemas/flavor.ts';
import { Job, type JobStage } from '../../hub/schemas/job.ts';
import type { WebhookJob, WebhookJobRequest } from '../../hub/schemas/webhook-job.ts';
import { newId24 } from './ids.ts';

/** What a webhook-started job runs: from the webhook's `job`, or copied from the `jobSourceId` job. */
export interface JobTemplate {
  dockerImage?: string;
  spaceId?: string;
  command?: string[];
  arguments?: string[];
  environment: Record<string, string>;
  secretNames: string[];
  flavor: Flavor;
  arch?: Arch;
  timeout?: number;
  volumes?: Job['volumes'];
}

export interface Principal {
  id: string;
  name: string;
}

export interface JobTiming {
  schedulingMs: number;
  runningMs: number;
}

export const DEFAULT_JOB_TIMING: JobTiming = { schedulingMs: 1_000, runningMs: 3_000 };

/** Mock-only switch: a job whose environment sets this to ERROR ends in ERROR instead of COMPLETED. */
export const OUTCOME_ENV = 'MOCK_JOB_OUTCOME';

/** `request` is the stored create request: it alone still has arch and volumes. */
export function templateFromWebhookJob(job: WebhookJob, request?: WebhookJobRequest): JobTemplate {
  return {
    arch: request?.arch,
    volumes: request?.volumes?.map((v) => ({ ...v })),
    dockerImage: job.dockerImage,
    spaceId: job.spaceId,
    command: job.command,
    arguments: job.arguments,
    environment: job.environment,
    secretNames: job.secrets ?? [],
    flavor: job.flavor,
    timeout: job.timeoutSeconds ?? undefined,
  };
}

export function templateFromJob(job: Job): JobTemplate {
  return {
    dockerImage: job.dockerImage,
    spaceId: job.spaceId,
    command: job.command,
    arguments: job.arguments,
    environment: Object.fromEntries(Object.entries(job.environment).filter(([k]) => k !== 'WEBHOOK_PAYLOAD')),
    secretNames: Object.keys(job.secrets ?? {}),
    flavor: job.flavor,
    arch: job.arch,
    timeout: job.timeout,
    volumes: job.volumes,
  };
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Creates jobs and moves them SCHEDULING -> RUNNING -> COMPLETED (or ERROR) on timers. */
export class JobRunner {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly save: (job: Job) => void,
    private readonly timing: JobTiming = DEFAULT_JOB_TIMING,
    private readonly now: () => Date = () => new Date(),
    /** The stored job, to see whether someone else (cancel, delete) moved it on meanwhile. */
    private readonly load: (id: string) => Job | undefined = () => undefined,
  ) {}

  start(template: JobTemplate, payloadJson: string, owner: Principal, createdBy: Principal = owner): Job {
    const createdAt = this.now();
    const job = Job.parse(
      dropUndefined({
        id: newId24(),
        createdAt: createdAt.toISOString(),
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
        status: { stage: 'SCHEDULING', message: null },
      }),
    );
    this.save(job);
    const fails = template.environment[OUTCOME_ENV] === 'ERROR';
    this.after(this.timing.schedulingMs, () => {
      if (this.movedOn(job.id, 'SCHEDULING')) return;
      const startedAt = this.now();
      const running = this.withStage(job, 'RUNNING', null, { startedAt: startedAt.toISOString() });
      this.save(running);
      this.after(this.timing.runningMs, () => {
        if (this.movedOn(job.id, 'RUNNING')) return;
        const finishedAt = this.now();
        const schedulingSecs = (startedAt.getTime() - createdAt.getTime()) / 1000;
        const runningSecs = (finishedAt.getTime() - startedAt.getTime()) / 1000;
        const done = this.withStage(running, fails ? 'ERROR' : 'COMPLETED', fails ? 'Job exited with code 1' : null, {
          finishedAt: finishedAt.toISOString(),
          durations: { schedulingSecs, runningSecs, totalSecs: schedulingSecs + runningSecs },
        });
        this.save(done);
      });
    });
    return job;
  }

  /** Stops pending stage changes (hub shutdown). */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private movedOn(id: string, expected: JobStage): boolean {
    const stored = this.load(id);
    return stored !== undefined && stored.status.stage !== expected;
  }

  private withStage(job: Job, stage: JobStage, message: string | null, extra: Partial<Job>): Job {
    return Job.parse({ ...job, ...extra, status: { ...job.status, stage, message } });
  }

  private after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      try {
        fn();
      } catch (err) {
        // A timer has no caller to report to; a failed stage change must not take the hub down.
        console.error('mock hub: webhook job stage change failed', err);
      }
    }, ms);
    t.unref();
    this.timers.add(t);
  }
}
