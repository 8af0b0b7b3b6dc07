import { describe, expect, it } from 'vitest';
import { failureOf, failureReason, filterByOutcome, jobPath, prettyJson } from './delivery-outcome.ts';

const e = (
  status: number | null,
  error: string | null = null,
  failure?: 'refused' | 'timeout' | 'non-2xx' | 'network' | 'job' | null,
) => ({ status, error, ...(failure !== undefined ? { failure } : {}) });

describe('delivery outcome', () => {
  it('filters by outcome: 2xx succeeded, everything else (no answer included) failed', () => {
    const list = [e(200), e(204), e(503, 'HTTP 503'), e(null, 'timeout after 10000 ms'), e(301, 'HTTP 301'), e(199)];
    expect(filterByOutcome(list, 'all')).toEqual(list);
    expect(filterByOutcome(list, 'succeeded').map((x) => x.status)).toEqual([200, 204]);
    expect(filterByOutcome(list, 'failed').map((x) => x.status)).toEqual([503, null, 301, 199]);
  });

  it('names the failure from the recorded kind, or from status and error for older entries', () => {
    expect(failureOf(e(200, null, null))).toBeNull();
    expect(failureOf(e(null, 'x', 'refused'))).toBe('refused');
    expect(failureOf(e(500, 'HTTP 500'))).toBe('non-2xx');
    expect(failureOf(e(null, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9'))).toBe('refused');
    expect(failureOf(e(null, 'timeout after 10000 ms'))).toBe('timeout');
    expect(failureOf(e(null, 'ENOTFOUND: getaddrinfo'))).toBe('network');
  });

  it('explains each failure in a sentence, with the status or the low-level error', () => {
    expect(failureReason(e(204))).toBeNull();
    expect(failureReason(e(503, 'HTTP 503', 'non-2xx'))).toEqual({
      label: 'Non-2xx answer',
      detail: 'The receiver answered HTTP 503; only 2xx counts as delivered.',
    });
    expect(failureReason(e(null, 'timeout after 10000 ms', 'timeout'))!.detail).toContain('(timeout after 10000 ms)');
    expect(failureReason(e(null, 'ECONNREFUSED: x', 'refused'))!.label).toBe('Connection refused');
    expect(failureReason(e(null, 'source job 1 not found', 'job'))!.detail).toContain('source job 1 not found');
  });

  it('pretty-prints JSON payloads and leaves a cut one as sent', () => {
    expect(prettyJson('{"a":{"b":1}}')).toBe('{\n  "a": {\n    "b": 1\n  }\n}');
    expect(prettyJson('{"a":{"b":')).toBe('{"a":{"b":');
  });

  it('links a job delivery to its job: the recorded jobId, else the one the target names', () => {
    const id = '1da67e5b2fa3928b84b4738c';
    expect(jobPath({ jobId: id, target: 'job' }, 'alice')).toBe(`/jobs/alice/${id}`);
    expect(jobPath({ target: `job acme/${id}` }, 'alice')).toBe(`/jobs/acme/${id}`);
    expect(jobPath({ jobId: id, target: `job acme/${id}` }, 'alice')).toBe(`/jobs/acme/${id}`);
    expect(jobPath({ target: 'https://receiver.test/hook' }, 'alice')).toBeNull();
    expect(jobPath({ jobId: id, target: 'job' }, undefined)).toBeNull();
  });
});
