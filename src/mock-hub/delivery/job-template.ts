import type { Arch, Flavor } from '../../hub/schemas/flavor.ts';
import type { Job, JobVolume } from '../../hub/schemas/job.ts';
import type { VolumeRequest, WebhookJob, WebhookJobRequest } from '../../hub/schemas/webhook-job.ts';

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
  volumes?: JobVolume[];
  /** Runs at most this many times: a failed run is retried up to `attempts - 1` times. */
  attempts: number;
  labels?: Record<string, string>;
  /** Plain tags of a source job (labels are kept apart and written back as `key=value`). */
  tags?: string[];
  exposePorts?: number[];
  ssh: boolean;
}

/** Where exposed ports and SSH point (`{jobs_public_domain}` and `{ssh_host}` of the spec); `.test` never resolves. */
export const JOBS_PUBLIC_DOMAIN = 'jobs.mock-hub.test';
export const SSH_HOST = 'ssh.mock-hub.test';

/** `https://<job_id>--<port>.{jobs_public_domain}`, one per port in order (the spec's `expose.ports`). */
export function exposeUrl(jobId: string, port: number): string {
  return `https://${jobId}--${port}.${JOBS_PUBLIC_DOMAIN}`;
}

/** The spec's `ssh <job_id>@{ssh_host}`, as the URL huggingface_hub's `hf jobs ssh` splits (`ssh://<job_id>@<host>`). */
export function sshUrl(jobId: string): string {
  return `ssh://${jobId}@${SSH_HOST}`;
}

/** Repos mount at `main`, always read-only; buckets are writable unless asked otherwise (spec: volume item). */
export function withVolumeDefaults(v: VolumeRequest | JobVolume): JobVolume {
  if (v.type === 'bucket') return { ...v, readOnly: v.readOnly ?? false };
  // huggingface_hub's Volume: "read_only: Forced True for repos".
  return { ...v, revision: v.revision ?? 'main', readOnly: true };
}

/** Labels travel in the Job's `tags` as `key=value`: the spec's Job has no `labels` field. */
export function labelTags(labels: Record<string, string> | undefined): string[] {
  return Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
}

/** `request` is the stored create request: it alone still has arch, attempts, volumes, expose and ssh. */
export function templateFromWebhookJob(job: WebhookJob, request?: WebhookJobRequest): JobTemplate {
  return {
    arch: request?.arch,
    volumes: request?.volumes?.map(withVolumeDefaults),
    dockerImage: job.dockerImage,
    spaceId: job.spaceId,
    command: job.command,
    arguments: job.arguments,
    environment: job.environment,
    secretNames: job.secrets ?? [],
    flavor: job.flavor,
    timeout: job.timeoutSeconds ?? undefined,
    attempts: request?.attempts ?? 1,
    labels: job.labels ?? request?.labels,
    exposePorts: request?.expose?.ports,
    ssh: request?.ssh?.enabled ?? false,
  };
}

const EXPOSED_PORT = /--(\d+)\./;

/** A `jobSourceId` webhook runs the source job again: same spec, without its old payload. */
export function templateFromJob(job: Job): JobTemplate {
  const ports = (job.status.exposeUrls ?? [])
    .map((u) => Number(EXPOSED_PORT.exec(u)?.[1]))
    .filter((p) => Number.isInteger(p));
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
    attempts: 1,
    tags: job.tags,
    ...(ports.length ? { exposePorts: ports } : {}),
    ssh: job.status.sshUrl !== undefined,
  };
}
