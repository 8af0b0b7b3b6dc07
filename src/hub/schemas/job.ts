import { z } from 'zod';
import { Timestamp, nameSet, queryInt } from './common.ts';
import { Arch, Flavor } from './flavor.ts';
import { LABEL_KEY, LABEL_VALUE } from './webhook-job.ts';

export const JOB_STAGES = ['COMPLETED', 'CANCELED', 'ERROR', 'DELETED', 'RUNNING', 'SCHEDULING'] as const;
export const JobStage = z.enum(JOB_STAGES);
export type JobStage = z.infer<typeof JobStage>;

/** Stages after which a job never runs again. */
export const TERMINAL_JOB_STAGES: readonly JobStage[] = ['COMPLETED', 'CANCELED', 'ERROR', 'DELETED'];
export const isTerminalStage = (stage: JobStage) => TERMINAL_JOB_STAGES.includes(stage);

/**
 * `owner` and `createdBy`. The spec closes the Job and its volume items ("No other fields are
 * allowed") but lists these two objects' fields without closing them, so the real hub's `type`
 * (user or org) fits; huggingface_hub's JobInfo reads `owner["type"]` and fails without it
 * (src/huggingface_hub/_jobs_api.py, JobInfo.__init__). Optional: the spec does not require it.
 */
export const JobPrincipal = z.object({
  id: z.string(),
  name: z.string(),
  type: z.union([z.enum(['user', 'org']), z.string()]).optional(),
});
export type JobPrincipal = z.infer<typeof JobPrincipal>;

export const JobStatus = z.strictObject({
  stage: JobStage,
  message: z.string().nullable(),
  cancelReason: z.union([z.enum(['NO_CREDITS', 'NO_SUBSCRIPTION']), z.string()]).optional(),
  failureCount: z.number().optional(),
  exposeUrls: z.array(z.string()).optional(),
  sshUrl: z.string().optional(),
});
export type JobStatus = z.infer<typeof JobStatus>;

export const JobVolume = z.strictObject({
  type: z.string(),
  source: z.string(),
  mountPath: z.string(),
  revision: z.string().optional(),
  readOnly: z.boolean().optional(),
  path: z.string().optional(),
});
export type JobVolume = z.infer<typeof JobVolume>;

export const Job = z.strictObject({
  id: z.string(),
  createdAt: Timestamp,
  owner: JobPrincipal,
  spaceId: z.string().optional(),
  dockerImage: z.string().optional(),
  timeout: z.number().optional(),
  environment: z.record(z.string(), z.string()),
  secrets: nameSet(z.record(z.string(), z.null())).optional(),
  command: z.array(z.string()).optional(),
  arguments: z.array(z.string()).optional(),
  arch: Arch.optional(),
  flavor: Flavor,
  status: JobStatus,
  createdBy: JobPrincipal,
  tags: z.array(z.string()).optional(),
  retry: z.number().optional(),
  startedAt: Timestamp.optional(),
  finishedAt: Timestamp.optional(),
  durations: z
    .strictObject({
      schedulingSecs: z.number().optional(),
      runningSecs: z.number().optional(),
      totalSecs: z.number().optional(),
    })
    .optional(),
  volumes: z.array(JobVolume).optional(),
});
export type Job = z.infer<typeof Job>;

/** A job's labels travel in `tags` as `key=value` (the spec's Job has no `labels` field). */
export const LabelFilter = z.string().refine((v) => {
  const at = v.indexOf('=');
  return at > 0 && LABEL_KEY.test(v.slice(0, at)) && LABEL_VALUE.test(v.slice(at + 1));
}, 'label filters are key=value with label rules (letters, digits, dot, dash, underscore; key 1..100, value 0..100)');

/** One value or several (a repeated query parameter arrives as an array). */
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]);

export const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * GET /api/jobs/{namespace} filters as huggingface_hub's `list_jobs` sends them: `stage`
 * repeated per stage, `label` repeated as `key=value`; a job must match one stage and every label.
 */
export const JobListQuery = z.strictObject({
  stage: oneOrMany(JobStage).optional(),
  label: oneOrMany(LabelFilter).optional(),
});
export type JobListQuery = z.input<typeof JobListQuery>;

/** GET /api/jobs/{namespace}/{jobId}/logs: `tail` keeps the last N lines of what was logged so far. */
export const JobLogsQuery = z.strictObject({ tail: queryInt(0, 100_000).optional() });
export type JobLogsQuery = z.input<typeof JobLogsQuery>;

/**
 * One server-sent event of a job's log: each `data: {...}` line holds `{data, timestamp}`, as
 * huggingface_hub's `fetch_job_logs` reads them (`event["data"]`; lines starting with
 * `===== Job started` are the hub's banner).
 */
export const JobLogEvent = z.object({ data: z.string(), timestamp: z.string() });
export type JobLogEvent = z.infer<typeof JobLogEvent>;
