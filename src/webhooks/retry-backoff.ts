export interface RetryPolicy {
  /** Attempts in all, first included (default 5); after the last failure the delivery is dead. */
  attempts: number;
  /** Delay before the first retry (default 1 s); doubles per failure. */
  baseMs: number;
  /** Cap on the delay (default 5 minutes). */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 1000, maxMs: 5 * 60 * 1000 };

/**
 * Exponential backoff with jitter: after the k-th failure (1-based) wait base * 2^(k-1), capped,
 * times a random factor in [0.5, 1.5), so deliveries that failed together do not retry together.
 */
export function retryDelayMs(failures: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(exponential * (0.5 + random()));
}
