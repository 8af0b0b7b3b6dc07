import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './respond.ts';

export interface RateLimitOptions {
  /** Requests allowed per caller (token, or anonymous) in each window. */
  requests: number;
  windowMs: number;
}

/**
 * Optional fixed-window limit so clients can be tested against 429: answers carry the IETF
 * `RateLimit` / `RateLimit-Policy` headers, and a refused request `Retry-After` in seconds.
 */
export function rateLimit(opts: RateLimitOptions, now: () => number = Date.now): MiddlewareHandler {
  const windows = new Map<string, { start: number; used: number }>();
  const policy = `${opts.requests};w=${Math.ceil(opts.windowMs / 1000)}`;
  return async (c, next) => {
    const key = c.req.header('authorization') ?? 'anonymous';
    const t = now();
    let w = windows.get(key);
    if (!w || t - w.start >= opts.windowMs) windows.set(key, (w = { start: t, used: 0 }));
    const reset = Math.max(1, Math.ceil((w.start + opts.windowMs - t) / 1000));
    const headers = {
      'RateLimit-Policy': policy,
      RateLimit: `limit=${opts.requests}, remaining=${Math.max(0, opts.requests - w.used - 1)}, reset=${reset}`,
    };
    if (w.used >= opts.requests) {
      return errorResponse(
        c,
        429,
        `rate limit of ${opts.requests} requests per ${opts.windowMs / 1000} s reached; retry after ${reset} s`,
        { ...headers, 'Retry-After': String(reset) },
      );
    }
    w.used++;
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

/** Parses `MOCK_HUB_RATE_LIMIT=<requests>/<seconds>` (e.g. `5/1`). */
export function rateLimitFromEnv(value: string | undefined): RateLimitOptions | undefined {
  const m = value ? /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value.trim()) : null;
  if (!m) return undefined;
  return { requests: Number(m[1]), windowMs: Number(m[2]) * 1000 };
}
