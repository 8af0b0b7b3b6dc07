import { hash, timingSafeEqual } from 'node:crypto';

export const SECRET_HEADER = 'x-webhook-secret';

/** The configured secret: the explicit option, else `WEBHOOK_SECRET`; empty counts as none. */
export function resolveSecret(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const secret = option ?? env.WEBHOOK_SECRET;
  return secret ? secret : undefined;
}

// Both sides are hashed first so the comparison runs on equal-length buffers and neither the
// time nor an early length mismatch tells an attacker how long the secret is.
export function secretMatches(expected: string, given: string): boolean {
  // One-shot `hash`: a `createHash` object per request costs several times the digest itself.
  return timingSafeEqual(digestOf(expected), hash('sha256', given, 'buffer'));
}

// The expected side is the same on every request (a server's secret, the page's session token):
// its digest is computed once. A handful are kept; more than that starts the cache afresh.
const expectedDigests = new Map<string, Buffer>();
function digestOf(expected: string): Buffer {
  let d = expectedDigests.get(expected);
  if (!d) {
    if (expectedDigests.size >= 8) expectedDigests.clear();
    d = hash('sha256', expected, 'buffer');
    expectedDigests.set(expected, d);
  }
  return d;
}

export type SecretCheck = { ok: true } | { ok: false; status: 401 | 403; error: string };

export function checkSecret(expected: string | undefined, header: string | null | undefined): SecretCheck {
  if (expected === undefined) return { ok: true };
  if (header === null || header === undefined)
    return { ok: false, status: 401, error: 'X-Webhook-Secret header not set.' };
  if (!secretMatches(expected, header)) return { ok: false, status: 403, error: 'Invalid webhook secret.' };
  return { ok: true };
}
