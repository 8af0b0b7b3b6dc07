import { z } from 'zod';
import { Timestamp } from './common.ts';
import { Arch, Flavor } from './flavor.ts';

export const JOB_STAGES = ['COMPLETED', 'CANCELED', 'ERROR', 'DELETED', 'RUNNING', 'SCHEDULING'] as const;
export const JobStage = z.enum(JOB_STAGES);
export type JobStage = z.infer<typeof JobStage>;

const Principal = z.strictObject({ id: z.string(), name: z.string() });

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

export const Job = z.strictObject({
  id: z.string(),
  createdAt: Timestamp,
  owner: Principal,
  spaceId: z.string().optional(),
  dockerImage: z.string().optional(),
  timeout: z.number().optional(),
  environment: z.record(z.string(), z.string()),
  secrets: z.record(z.string(), z.null()).optional(),
  command: z.array(z.string()).optional(),
  arguments: z.array(z.string()).optional(),
  arch: Arch.optional(),
  flavor: Flavor,
  status: JobStatus,
  createdBy: Principal,
  tags: z.array(z.string()).optional(),
  retry: z.number().optional(),
  startedAt: Timestamp.optional(),
  finishedAt: Timestamp.optional(),
  durations: z
    .strictObject({ schedulingSecs: z.number().optional(), runningSecs: z.number().optional(), totalSecs: z.number().optional() })
    .optional(),
  volumes: z.array(JobVolume).optional(),
});
export type Job = z.infer<typeof Job>;
