import { describe, expect, it } from 'vitest';
import { DEFAULT_JOB_TIMING, planFromEnvironment } from './job-switches.ts';

const plan = (env: Record<string, string>) => {
  const r = planFromEnvironment(env);
  if (!r.ok) throw new Error(r.message);
  return r.plan;
};

describe('planFromEnvironment', () => {
  it('runs with the default timing and succeeds when no switch is set', () => {
    const p = plan({ LOG_LEVEL: 'debug' });
    expect([p.schedulingMs, p.runningMs]).toEqual([DEFAULT_JOB_TIMING.schedulingMs, DEFAULT_JOB_TIMING.runningMs]);
    expect([1, 2, 3].map((n) => p.fails(n))).toEqual([false, false, false]);
  });

  it('fails every attempt with MOCK_JOB_OUTCOME=ERROR, the first n with MOCK_JOB_FAIL_ATTEMPTS=n', () => {
    expect([1, 5].map((n) => plan({ MOCK_JOB_OUTCOME: 'ERROR' }).fails(n))).toEqual([true, true]);
    expect([1, 2, 3].map((n) => plan({ MOCK_JOB_FAIL_ATTEMPTS: '2' }).fails(n))).toEqual([true, true, false]);
    expect(plan({ MOCK_JOB_OUTCOME: 'COMPLETED' }).fails(1)).toBe(false);
  });

  it('takes the seconds it is given', () => {
    expect(plan({ MOCK_JOB_RUN_SECONDS: '2.5', MOCK_JOB_SCHEDULE_SECONDS: '0' })).toMatchObject({
      runningMs: 2500,
      schedulingMs: 0,
    });
  });

  it('names the variable and the value it could not use', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ MOCK_JOB_OUTCOME: 'error' }, /^MOCK_JOB_OUTCOME must be COMPLETED or ERROR \(got "error"\)/],
      [{ MOCK_JOB_FAIL_ATTEMPTS: '1.5' }, /^MOCK_JOB_FAIL_ATTEMPTS must be a whole number/],
      [{ MOCK_JOB_FAIL_ATTEMPTS: '' }, /^MOCK_JOB_FAIL_ATTEMPTS/],
      [
        { MOCK_JOB_RUN_SECONDS: '-1' },
        /^MOCK_JOB_RUN_SECONDS must be a number of seconds from 0 to 86400 \(got "-1"\)/,
      ],
      [{ MOCK_JOB_RUN_SECONDS: '86401' }, /^MOCK_JOB_RUN_SECONDS/],
      [{ MOCK_JOB_SCHEDULE_SECONDS: ' ' }, /^MOCK_JOB_SCHEDULE_SECONDS/],
    ];
    for (const [env, message] of cases) {
      const r = planFromEnvironment(env);
      expect(r.ok, JSON.stringify(env)).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
  });
});
