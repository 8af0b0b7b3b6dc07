/**
 * Mock-only switches a job reads from its own environment, so tests and users can make a job take
 * time or fail and see every stage. The real hub runs the container instead.
 */
export const SWITCHES = {
  /** `ERROR`: every attempt fails (exit code 1). `COMPLETED` (or unset): attempts succeed. */
  outcome: 'MOCK_JOB_OUTCOME',
  /** `<n>`: the first n attempts fail, later ones succeed (with `attempts` > n the job completes after n retries). */
  failAttempts: 'MOCK_JOB_FAIL_ATTEMPTS',
  /** `<seconds>`: how long each attempt runs (default 3 s). */
  runSeconds: 'MOCK_JOB_RUN_SECONDS',
  /** `<seconds>`: how long each attempt waits in SCHEDULING (default 1 s). */
  scheduleSeconds: 'MOCK_JOB_SCHEDULE_SECONDS',
} as const;

/** Longest a switch may make a stage last (one day), so no timer outlives reason. */
export const MAX_SWITCH_SECONDS = 86_400;

export interface JobTiming {
  schedulingMs: number;
  runningMs: number;
  /** Between two "still running" log lines. */
  tickMs: number;
}

export const DEFAULT_JOB_TIMING: JobTiming = { schedulingMs: 1_000, runningMs: 3_000, tickMs: 1_000 };

export interface JobPlan {
  schedulingMs: number;
  runningMs: number;
  /** Whether attempt `n` (1-based) fails. */
  fails(attempt: number): boolean;
}

export type PlanResult = { ok: true; plan: JobPlan } | { ok: false; message: string };

function seconds(env: Record<string, string>, name: string, fallbackMs: number): number | string {
  const raw = env[name];
  if (raw === undefined) return fallbackMs;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > MAX_SWITCH_SECONDS)
    return `${name} must be a number of seconds from 0 to ${MAX_SWITCH_SECONDS} (got "${raw}")`;
  return n * 1000;
}

/** The plan a job's environment asks for; a bad switch is an error naming the variable. */
export function planFromEnvironment(env: Record<string, string>, timing: JobTiming = DEFAULT_JOB_TIMING): PlanResult {
  const outcome = env[SWITCHES.outcome] ?? 'COMPLETED';
  if (outcome !== 'COMPLETED' && outcome !== 'ERROR')
    return { ok: false, message: `${SWITCHES.outcome} must be COMPLETED or ERROR (got "${outcome}")` };
  const rawFail = env[SWITCHES.failAttempts];
  const failAttempts = rawFail === undefined ? 0 : Number(rawFail);
  if (!Number.isInteger(failAttempts) || failAttempts < 0 || rawFail?.trim() === '') {
    return { ok: false, message: `${SWITCHES.failAttempts} must be a whole number of attempts (got "${rawFail}")` };
  }
  const schedulingMs = seconds(env, SWITCHES.scheduleSeconds, timing.schedulingMs);
  if (typeof schedulingMs === 'string') return { ok: false, message: schedulingMs };
  const runningMs = seconds(env, SWITCHES.runSeconds, timing.runningMs);
  if (typeof runningMs === 'string') return { ok: false, message: runningMs };
  return {
    ok: true,
    plan: { schedulingMs, runningMs, fails: (attempt) => outcome === 'ERROR' || attempt <= failAttempts },
  };
}
