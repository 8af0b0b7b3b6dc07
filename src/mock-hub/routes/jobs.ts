import { z } from 'zod';
import { Job, JobListQuery, JobLogEvent, JobLogsQuery, asArray, isTerminalStage } from '../../hub/schemas/index.ts';
import { recordAuditEvent } from '../audit/record-audit-event.ts';
import type { AuthInfo } from '../auth/authenticate.ts';
import { checkOrgAccess } from '../auth/org-access.ts';
import { logLinesFromRecord } from '../delivery/job-logs.ts';
import { deliveriesOf } from '../delivery/registry.ts';
import { conflict, forbidden, notFound } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { findOrg, findUser } from '../seed/users.ts';
import type { HubState } from '../store/state-schema.ts';

// Evidence that the real hub serves these routes: huggingface_hub's HfApi calls each of them
// (src/huggingface_hub/hf_api.py at ee0a4510; JobInfo in _jobs_api.py). The spec lists jobs
// among the groups whose endpoints are "not shown", and gives only the Job schema.

const tag = 'jobs';
const JobParams = z.strictObject({ namespace: z.string(), jobId: z.string() });

/**
 * A namespace is the caller's own user or an org they belong to (not revoked). Writes in an org
 * need more than its read role.
 */
function checkNamespace(state: HubState, auth: AuthInfo, namespace: string, write = false) {
  if (namespace === auth.user.name) return;
  if (findOrg(namespace)) {
    const { role } = checkOrgAccess(state, auth, namespace, write);
    if (write && role === 'read')
      throw forbidden(`canceling jobs of organization "${namespace}" needs more than the read role`);
    return;
  }
  if (findUser(namespace)) throw forbidden(`you cannot ${write ? 'change' : 'read'} the jobs of user "${namespace}"`);
  throw notFound(`namespace "${namespace}" not found`);
}

function findJob(state: HubState, namespace: string, jobId: string): Job {
  const job = state.jobs[namespace]?.find((j) => j.id === jobId);
  if (!job) throw notFound(`job "${jobId}" not found in "${namespace}"`);
  return job;
}

/** huggingface_hub `list_jobs`: GET with `stage` and `label` (key=value) repeated per value, pages followed by Link. */
// Real hub: huggingface_hub hf_api.py HfApi.list_jobs and huggingface.js packages/hub/src/lib/jobs/list-jobs.ts listJobs.
const list = defineRoute({
  method: 'get',
  path: '/api/jobs/{namespace}',
  tag,
  auth: 'user',
  extension: {
    realHub:
      'huggingface_hub src/huggingface_hub/hf_api.py HfApi.list_jobs; huggingface.js packages/hub/src/lib/jobs/list-jobs.ts listJobs',
  },
  summary: 'Jobs of a user or org, newest first (webhook jobs included)',
  description:
    'Filters as huggingface_hub `list_jobs` sends them: `stage` (one or more) and `label` (`key=value`, one or more; a job must carry every label, kept in `tags` as `key=value`).',
  params: z.strictObject({ namespace: z.string() }),
  query: JobListQuery,
  response: z.array(Job),
  errors: [403, 404],
  handler: ({ params, query, auth, hub }) => {
    checkNamespace(hub.store.state, auth, params.namespace);
    const stages = asArray(query.stage);
    const labels = asArray(query.label);
    return (hub.store.state.jobs[params.namespace] ?? [])
      .filter((j) => (!stages.length || stages.includes(j.status.stage)) && labels.every((l) => j.tags?.includes(l)))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  },
});

/** huggingface_hub `inspect_job` (and `wait_for_job`, which polls it). */
// Real hub: huggingface_hub hf_api.py HfApi.inspect_job and huggingface.js packages/hub/src/lib/jobs/get-job.ts getJob.
const get = defineRoute({
  method: 'get',
  path: '/api/jobs/{namespace}/{jobId}',
  tag,
  auth: 'user',
  extension: {
    realHub:
      'huggingface_hub src/huggingface_hub/hf_api.py HfApi.inspect_job; huggingface.js packages/hub/src/lib/jobs/get-job.ts getJob',
  },
  summary: 'One job',
  params: JobParams,
  response: Job,
  errors: [403, 404],
  handler: ({ params, auth, hub }) => {
    checkNamespace(hub.store.state, auth, params.namespace);
    return findJob(hub.store.state, params.namespace, params.jobId);
  },
});

/** huggingface_hub `cancel_job`: POST without a body; it reads only the status code. */
// Real hub: huggingface_hub hf_api.py HfApi.cancel_job and huggingface.js packages/hub/src/lib/jobs/cancel-job.ts cancelJob.
const cancel = defineRoute({
  method: 'post',
  path: '/api/jobs/{namespace}/{jobId}/cancel',
  tag,
  auth: 'user',
  extension: {
    realHub:
      'huggingface_hub src/huggingface_hub/hf_api.py HfApi.cancel_job; huggingface.js packages/hub/src/lib/jobs/cancel-job.ts cancelJob',
  },
  summary: 'Cancel a scheduled or running job (stage becomes CANCELED); answers the job',
  description:
    'A job already CANCELED is answered as it is; a COMPLETED, ERROR or DELETED job is a 409. In an organization this needs more than the read role; it is recorded in the audit log as `jobs.cancel`.',
  params: JobParams,
  response: Job,
  errors: [404, 409],
  handler: ({ params, auth, hub }) => {
    const state = hub.store.state;
    checkNamespace(state, auth, params.namespace, true);
    const job = findJob(state, params.namespace, params.jobId);
    if (job.status.stage === 'CANCELED') return job;
    if (isTerminalStage(job.status.stage))
      throw conflict(`job "${job.id}" is ${job.status.stage}; only a SCHEDULING or RUNNING job can be canceled`);
    const canceled = deliveriesOf(hub).jobs.cancel(job.id, auth.user.name)!;
    if (findOrg(params.namespace))
      recordAuditEvent(
        state,
        params.namespace,
        auth,
        hub.store.now(),
        'jobs.cancel',
        `${auth.user.name} canceled job ${job.id}`,
        { jobId: job.id },
      );
    return canceled;
  },
});

const encoder = new TextEncoder();
/** The real hub sends `: keep-alive` every 30 s (huggingface_hub's comment in `fetch_job_logs`); half that here. */
export const KEEP_ALIVE_MS = 15_000;
const event = (e: JobLogEvent) => encoder.encode(`data: ${JSON.stringify(JobLogEvent.parse(e))}\n\n`);

/**
 * huggingface_hub `fetch_job_logs` (through `_stream_sse_events`): reads lines starting with
 * `data: {`, parses `{data, timestamp}`, drops the `===== Job started` banner; with follow it
 * reads until the stream ends, then polls `inspect_job`.
 */
// Real hub: huggingface_hub hf_api.py HfApi.fetch_job_logs (_fetch_running_job_sse) and huggingface.js packages/hub/src/lib/jobs/stream-job-logs.ts streamJobLogs.
const logs = defineRoute({
  method: 'get',
  path: '/api/jobs/{namespace}/{jobId}/logs',
  tag,
  auth: 'user',
  extension: {
    realHub:
      'huggingface_hub src/huggingface_hub/hf_api.py HfApi.fetch_job_logs; huggingface.js packages/hub/src/lib/jobs/stream-job-logs.ts streamJobLogs',
  },
  summary: "A job's log as server-sent events: what was logged so far, then new lines until the job ends",
  description:
    'Each event is `data: {"data": "<line>", "timestamp": "<ISO time>"}`. The stream closes when the job is (or becomes) COMPLETED, CANCELED, ERROR or DELETED; ' +
    'while it runs, a `: keep-alive` comment comes every 15 s. `tail=N` replays only the last N lines logged so far.',
  params: JobParams,
  query: JobLogsQuery,
  response: JobLogEvent,
  raw: {
    contentType: 'text/event-stream',
    validatedBy: 'JobLogEvent, on every event as it is written (routes/jobs.ts)',
  },
  errors: [403, 404],
  handler: ({ params, query, auth, hub }) => {
    checkNamespace(hub.store.state, auth, params.namespace);
    const job = findJob(hub.store.state, params.namespace, params.jobId);
    const book = deliveriesOf(hub).jobs.logs;
    const backlog = book.read(job.id) ?? logLinesFromRecord(job);
    const replay = query.tail === undefined ? backlog : backlog.slice(Math.max(0, backlog.length - query.tail));
    let stop = () => undefined as void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const e of replay) controller.enqueue(event(e));
        if (isTerminalStage(job.status.stage)) return controller.close();
        const keepAlive = setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), KEEP_ALIVE_MS);
        keepAlive.unref();
        const unfollow = book.follow(job.id, {
          line: (e) => controller.enqueue(event(e)),
          end: () => {
            stop();
            controller.close();
          },
        });
        stop = () => {
          clearInterval(keepAlive);
          unfollow();
        };
      },
      cancel: () => stop(),
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      },
    });
  },
});

export const jobRoutes = [list, get, cancel, logs];
