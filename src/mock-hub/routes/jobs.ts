import { z } from 'zod';
import { Job } from '../../hub/schemas/index.ts';
import type { AuthInfo } from '../auth/authenticate.ts';
import { checkOrgAccess } from '../auth/org-access.ts';
import { forbidden, notFound } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { findOrg, findUser } from '../seed/users.ts';
import type { HubState } from '../store/state-schema.ts';

/** A namespace is the caller's own user or an org they belong to (not revoked). */
function checkNamespace(state: HubState, auth: AuthInfo, namespace: string) {
  if (namespace === auth.user.name) return;
  if (findOrg(namespace)) return void checkOrgAccess(state, auth, namespace, false);
  if (findUser(namespace)) throw forbidden(`you cannot read the jobs of user "${namespace}"`);
  throw notFound(`namespace "${namespace}" not found`);
}

// Real hub: huggingface_hub hf_api.py HfApi.list_jobs and huggingface.js packages/hub/src/lib/jobs/list-jobs.ts listJobs.
const list = defineRoute({
  method: 'get', path: '/api/jobs/{namespace}', tag: 'jobs', auth: 'user',
  extension: { realHub: 'huggingface_hub src/huggingface_hub/hf_api.py HfApi.list_jobs; huggingface.js packages/hub/src/lib/jobs/list-jobs.ts listJobs' },
  summary: 'Jobs of a user or org, newest first (webhook jobs included)',
  params: z.strictObject({ namespace: z.string() }),
  response: z.array(Job),
  errors: [403, 404],
  handler: ({ params, auth, hub }) => {
    checkNamespace(hub.store.state, auth, params.namespace);
    return hub.store.state.jobs[params.namespace] ?? [];
  },
});

// Real hub: huggingface_hub hf_api.py HfApi.inspect_job and huggingface.js packages/hub/src/lib/jobs/get-job.ts getJob.
const get = defineRoute({
  method: 'get', path: '/api/jobs/{namespace}/{jobId}', tag: 'jobs', auth: 'user',
  extension: { realHub: 'huggingface_hub src/huggingface_hub/hf_api.py HfApi.inspect_job; huggingface.js packages/hub/src/lib/jobs/get-job.ts getJob' },
  summary: 'One job',
  params: z.strictObject({ namespace: z.string(), jobId: z.string() }),
  response: Job,
  errors: [403, 404],
  handler: ({ params, auth, hub }) => {
    checkNamespace(hub.store.state, auth, params.namespace);
    const job = hub.store.state.jobs[params.namespace]?.find((j) => j.id === params.jobId);
    if (!job) throw notFound(`job "${params.jobId}" not found in "${params.namespace}"`);
    return job;
  },
});

export const jobRoutes = [list, get];
