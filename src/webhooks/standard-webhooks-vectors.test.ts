// The reference libraries' own test vectors (standard-webhooks/standard-webhooks,
// libraries/javascript/src/webhook.test.ts and libraries/python/tests/test_webhooks.py), ported.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWebhooksServer } from './server.ts';
import { sign, signingKey, TOLERANCE_SECONDS, verifySignature } from './standard-webhooks.ts';
import { recordingLogger } from './test-logger.ts';

const MSG_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const PAYLOAD = '{"test": 2432232314}';
const SECRET = 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW = 1_700_000_000;

/** As the references build it: HMAC with the base64-decoded secret over `id.timestamp.payload`. */
function referenceHeaders(timestamp = NOW): Record<string, string> {
  const signature = createHmac('sha256', Buffer.from(SECRET, 'base64'))
    .update(`${MSG_ID}.${timestamp}.${PAYLOAD}`)
    .digest('base64');
  return { 'webhook-id': MSG_ID, 'webhook-signature': `v1,${signature}`, 'webhook-timestamp': String(timestamp) };
}

const verify = (headers: Record<string, string>, secret = SECRET, now = NOW) =>
  verifySignature(signingKey(secret), new Headers(headers), PAYLOAD, now);

describe('Standard Webhooks reference vectors', () => {
  it('signs the reference message as the references do, with and without whsec_', () => {
    for (const secret of [`whsec_${SECRET}`, SECRET])
      expect(`v1,${sign(signingKey(secret), MSG_ID, '1614265330', PAYLOAD)}`).toBe(
        'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      );
  });

  it('accepts a valid signature, with the secret with and without whsec_', () => {
    expect(verify(referenceHeaders())).toEqual({ ok: true, webhookId: MSG_ID });
    expect(verify(referenceHeaders(), `whsec_${SECRET}`)).toEqual({ ok: true, webhookId: MSG_ID });
  });

  it('accepts the svix- header names', () => {
    const h = referenceHeaders();
    const svix = {
      'svix-id': h['webhook-id']!,
      'svix-timestamp': h['webhook-timestamp']!,
      'svix-signature': h['webhook-signature']!,
    };
    expect(verify(svix)).toEqual({ ok: true, webhookId: MSG_ID });
  });

  it('refuses a missing id, timestamp or signature', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const h = referenceHeaders();
      delete h[name];
      expect(verify(h), name).toMatchObject({ ok: false, status: 401, error: expect.stringMatching(/required/) });
    }
  });

  it('refuses a timestamp that is not a number', () => {
    expect(verify({ ...referenceHeaders(), 'webhook-timestamp': 'hello' })).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses an invalid, a partial and an empty signature', () => {
    const valid = referenceHeaders()['webhook-signature']!;
    for (const signature of [
      'v1,dawfeoifkpqwoekfpqoekf',
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA=',
      valid.slice(0, 8),
      'v1,',
    ])
      expect(verify({ ...referenceHeaders(), 'webhook-signature': signature }).ok, signature).toBe(false);
  });

  it('refuses a timestamp older or newer than the tolerance, comparing whole seconds', () => {
    expect(verify(referenceHeaders(NOW - TOLERANCE_SECONDS - 1)).ok).toBe(false);
    expect(verify(referenceHeaders(NOW + TOLERANCE_SECONDS + 1)).ok).toBe(false);
    // A clock 300.9 s past the timestamp is 300 whole seconds past it: within the tolerance.
    expect(verify(referenceHeaders(NOW), SECRET, NOW + TOLERANCE_SECONDS + 0.9).ok).toBe(true);
  });

  it('accepts one valid signature among several; v1a and v2 schemes are not v1', () => {
    const valid = referenceHeaders()['webhook-signature']!;
    const other = 'Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=';
    const several = [`v1,${other}`, `v2,${other}`, valid, `v1,${other}`].join(' ');
    expect(verify({ ...referenceHeaders(), 'webhook-signature': several }).ok).toBe(true);
    for (const scheme of ['v1a', 'v2'])
      expect(verify({ ...referenceHeaders(), 'webhook-signature': valid.replace('v1,', `${scheme},`) }).ok).toBe(false);
  });

  it('refuses at start a secret that is empty, not base64, or decodes to no bytes, naming the option', () => {
    for (const secret of ['', 'whsec_', 'whsec_!!!!', '!!!!', 'whsec_A', 'not base64 at all']) {
      expect(() => signingKey(secret), JSON.stringify(secret)).toThrow(/standardWebhooksSecret/);
      expect(
        () => createWebhooksServer({ logger: recordingLogger(), standardWebhooksSecret: secret }),
        JSON.stringify(secret),
      ).toThrow(/standardWebhooksSecret/);
    }
  });
});
