import type { Webhook } from '../../hub/schemas/index.ts';

/** One line saying where a webhook delivers. */
export function describeTarget(w: Webhook): string {
  if (w.url) return w.url;
  if (w.job) return `Job: ${w.job.dockerImage ?? `Space ${w.job.spaceId ?? '?'}`} on ${w.job.flavor}`;
  if (w.jobSourceId) return `Job from ${w.jobSourceId}`;
  return 'No target';
}
