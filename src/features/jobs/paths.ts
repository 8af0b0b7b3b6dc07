/** The job detail route (the delivery inspector links here too): `/jobs/<namespace>/<jobId>`. */
export const jobPath = (namespace: string, jobId: string) =>
  `/jobs/${encodeURIComponent(namespace)}/${encodeURIComponent(jobId)}`;

/** `/jobs` for the signed-in user's own jobs, `/orgs/<org>/jobs` for an organization's. */
export const jobsListPath = (namespace: string, me: string | undefined) =>
  namespace === me ? '/jobs' : `/orgs/${encodeURIComponent(namespace)}/jobs`;
