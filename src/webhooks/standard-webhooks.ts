// Standard Webhooks signatures (standardwebhooks.com), for deliveries that reach the receiver through
// a relay that signs: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the shared key,
// base64, sent as `v1,<signature>` in `webhook-signature` (several, space-separated, while keys rotate).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOLERANCE_SECONDS = 5 * 60;

/** The key: `whsec_<base64>` as Standard Webhooks writes it, or any other string taken as its UTF-8 bytes. */
export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret);
}

export function sign(key: Buffer, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

export type SignatureCheck = { ok: true; webhookId: string } | { ok: false; status: 400 | 401; error: string };

export function verifySignature(
  key: Buffer,
  headers: { get(name: string): string | null | undefined },
  body: string,
  nowSeconds = Date.now() / 1000,
): SignatureCheck {
  const id = headers.get('webhook-id');
  const timestamp = headers.get('webhook-timestamp');
  const signatures = headers.get('webhook-signature');
  if (!id || !timestamp || !signatures)
    return {
      ok: false,
      status: 401,
      error: 'webhook-id, webhook-timestamp and webhook-signature headers are required.',
    };
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp))
    return { ok: false, status: 400, error: 'webhook-timestamp is not a number of seconds.' };
  if (Math.abs(nowSeconds - seconds) > TOLERANCE_SECONDS)
    return { ok: false, status: 401, error: 'webhook-timestamp is more than 5 minutes away from now.' };
  const expected = Buffer.from(sign(key, id, timestamp, body), 'base64');
  // Every candidate is compared in full, so the time taken does not tell which one came close.
  let match = false;
  for (const part of signatures.split(' ')) {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) match = true;
  }
  return match ? { ok: true, webhookId: id } : { ok: false, status: 401, error: 'No valid webhook-signature.' };
}

/** Remembers webhook-ids for the tolerance window, so a relay's redelivery is handled once (no store). */
export class RecentIds {
  private readonly seen = new Map<string, number>();
  constructor(private readonly windowMs = 2 * TOLERANCE_SECONDS * 1000) {}

  /** True the first time an id is seen within the window. */
  first(id: string, now = Date.now()): boolean {
    for (const [k, at] of this.seen) {
      if (at >= now - this.windowMs) break;
      this.seen.delete(k);
    }
    if (this.seen.has(id)) return false;
    this.seen.set(id, now);
    return true;
  }
}
