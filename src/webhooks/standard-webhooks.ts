// Standard Webhooks signatures (standardwebhooks.com), for deliveries that reach the receiver through
// a relay that signs: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` with the shared key,
// base64, sent as `v1,<signature>` in `webhook-signature` (several, space-separated, while keys rotate).
// Svix, the reference sender, names the same headers `svix-id`, `svix-timestamp` and `svix-signature`.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The key: the base64 after an optional `whsec_`, as every reference library reads it. A secret that
 * is not base64 or decodes to no bytes throws, naming the option: an empty key would let anyone sign.
 */
export function signingKey(secret: string, option = 'standardWebhooksSecret'): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length === 0)
    throw new Error(
      `${option} must be the signing secret as the sender shows it, "whsec_" and base64 bytes (or the base64 alone); ` +
        `got ${secret ? 'a value that is not base64 or decodes to no bytes' : 'an empty string'}.`,
    );
  return key;
}

export function sign(key: Buffer, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

export type SignatureCheck = { ok: true; webhookId: string } | { ok: false; status: 400 | 401; error: string };

type HeaderReader = { get(name: string): string | null | undefined };

const header = (headers: HeaderReader, name: string) => headers.get(`webhook-${name}`) || headers.get(`svix-${name}`);

export function verifySignature(
  key: Buffer,
  headers: HeaderReader,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureCheck {
  const id = header(headers, 'id');
  const timestamp = header(headers, 'timestamp');
  const signatures = header(headers, 'signature');
  if (!id || !timestamp || !signatures)
    return {
      ok: false,
      status: 401,
      error: 'webhook-id, webhook-timestamp and webhook-signature headers (or their svix- names) are required.',
    };
  if (!/^\d+$/.test(timestamp))
    return { ok: false, status: 400, error: 'webhook-timestamp is not a number of seconds.' };
  // Whole seconds on both sides, as the reference libraries compare them.
  if (Math.abs(Math.floor(nowSeconds) - Number(timestamp)) > TOLERANCE_SECONDS)
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

/**
 * The webhook-ids handled within the tolerance window (without a store), so a relay's redelivery of
 * a handled message runs nothing. An id counts as handled only once its handler succeeded; while it
 * runs, the id is in progress (for the window at most, so a handler that never settles does not
 * hold its id forever).
 */
export class RecentIds {
  private readonly handled = new Map<string, number>();
  private readonly inProgress = new Map<string, number>();
  constructor(private readonly windowMs = 2 * TOLERANCE_SECONDS * 1000) {}

  /** What is known of an id: handled, in progress, or new (then it is in progress until `settle`). */
  begin(id: string, now = Date.now()): 'handled' | 'in-progress' | 'new' {
    for (const [k, at] of this.handled) {
      if (at >= now - this.windowMs) break;
      this.handled.delete(k);
    }
    if (this.handled.has(id)) return 'handled';
    const since = this.inProgress.get(id);
    if (since !== undefined && since >= now - this.windowMs) return 'in-progress';
    this.inProgress.set(id, now);
    return 'new';
  }

  /** Ends `begin`'s claim: a success marks the id handled, a failure forgets it so a retry runs. */
  settle(id: string, succeeded: boolean, now = Date.now()): void {
    this.inProgress.delete(id);
    if (succeeded) this.handled.set(id, now);
  }
}
