// The client against a hub that answers with more than the spec shows, as the real hub does.
import { beforeEach, describe, expect, it } from 'vitest';
import { TOKENS, withMockHub } from '../test-support/hub-harness.ts';
import { Job } from './schemas/index.ts';
import type { FetchLike } from './transport.ts';
import { allReadable } from './tolerant-response.ts';

const hub = withMockHub();
beforeEach(() => {
  served = [];
});

type Json = Record<string, unknown>;
/** What the richer hub answered, to show the extra fields were there. */
let served: unknown[] = [];

/**
 * The mock hub's Job answers with what the real hub adds: `labels` and `initiator` (huggingface_hub's
 * JobInfo reads both: src/huggingface_hub/_jobs_api.py, JobInfo.__init__), and a field inside `status`.
 */
function realHubJobs(fetch: FetchLike): FetchLike {
  const richer = (job: Json) => ({
    ...job,
    labels: { team: 'ml' },
    initiator: { type: 'user', id: (job.createdBy as Json).id, name: (job.createdBy as Json).name },
    status: { ...(job.status as Json), updatedAt: '2026-11-01T12:00:00Z' },
  });
  return async (url, init) => {
    const res = await fetch(url, init);
    if (!/\/api\/jobs\/[^/]+(\/[^/]+)?$/.test(new URL(url).pathname) || !res.ok) return res;
    const body = (await res.json()) as Json | Json[];
    const answer = Array.isArray(body) ? body.map(richer) : richer(body);
    served.push(answer);
    return new Response(JSON.stringify(answer), { status: res.status, headers: res.headers });
  };
}

describe('a hub whose Job carries labels and initiator', () => {
  it('lists and shows each job as the spec’s Job', async () => {
    const plain = hub.as(TOKENS.aliceWrite);
    const real = hub.as(TOKENS.aliceWrite, realHubJobs);
    const jobs = allReadable(await plain.listJobs('alice'));
    expect(jobs.length).toBeGreaterThan(0);

    expect(allReadable(await real.listJobs('alice'))).toEqual(jobs);
    expect(await real.getJob('alice', jobs[0]!.id)).toEqual(await plain.getJob('alice', jobs[0]!.id));
    // The answers did carry the extra fields, which the contract (the mock hub's own check) refuses.
    expect(served).toHaveLength(2);
    expect(served[1]).toMatchObject({
      id: jobs[0]!.id,
      labels: { team: 'ml' },
      initiator: { type: 'user' },
      status: { updatedAt: '2026-11-01T12:00:00Z' },
    });
    expect(Job.safeParse(served[1]).success).toBe(false);
  });
});
