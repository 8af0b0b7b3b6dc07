/**
 * How long a 429 asks us to wait, in ms, or null when it does not say. Reads `Retry-After`
 * (delta-seconds or HTTP-date), the IETF draft `RateLimit: "policy";r=0;t=12` and the older
 * `RateLimit-Reset: 12` form.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const parsed = parseRetryAfter(retryAfter, now);
    if (parsed !== null) return parsed;
  }
  const rateLimit = headers.get('ratelimit');
  if (rateLimit !== null) {
    const parsed = parseRateLimit(rateLimit);
    if (parsed !== null) return parsed;
  }
  const reset = headers.get('ratelimit-reset') ?? headers.get('x-ratelimit-reset');
  if (reset !== null && /^\s*\d+(\.\d+)?\s*$/.test(reset)) return seconds(Number(reset));
  return null;
}

export function parseRetryAfter(value: string, now: number = Date.now()): number | null {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return seconds(Number(trimmed));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/**
 * `RateLimit` is a list of policy items; an item whose remaining quota `r` is 0 tells when it
 * resets via `t`. Without r=0 we take the largest `t`, since the 429 means some policy ran out.
 */
export function parseRateLimit(value: string): number | null {
  let exhausted: number | null = null;
  let largest: number | null = null;
  for (const item of value.split(',')) {
    const params = new Map<string, string>();
    for (const part of item.split(';').slice(1)) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
    }
    const t = params.get('t');
    if (t === undefined || !/^\d+$/.test(t)) continue;
    const wait = Number(t);
    largest = Math.max(largest ?? 0, wait);
    if (params.get('r') === '0') exhausted = Math.max(exhausted ?? 0, wait);
  }
  const chosen = exhausted ?? largest;
  return chosen === null ? null : seconds(chosen);
}

function seconds(s: number): number {
  return Math.round(s * 1000);
}
