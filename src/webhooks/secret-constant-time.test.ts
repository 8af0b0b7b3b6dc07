// The secret compare's implementation contract, tested structurally (wall-clock timing of a
// single compare is noise on a shared machine): every comparison, whatever the guess, goes
// through crypto.timingSafeEqual over two 32-byte digests, exactly once, with no early exit.
import fc from 'fast-check';
import type * as Crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

const calls: [Buffer, Buffer][] = [];
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  return {
    ...real,
    timingSafeEqual: (a: Buffer, b: Buffer) => {
      calls.push([Buffer.from(a), Buffer.from(b)]);
      return real.timingSafeEqual(a, b);
    },
  };
});

const { checkSecret, secretMatches } = await import('./secret.ts');
const { createWebhooksServer } = await import('./server.ts');
const { samplePayload } = await import('./sample-payload.ts');

afterEach(() => {
  calls.length = 0;
});

describe('webhook secret compare is constant-time by construction', () => {
  it('every guess (right, wrong first char, wrong last char, shorter, longer, empty, unicode) is one timingSafeEqual over 32-byte digests', () => {
    const secret = 's3cret-value-with-some-length';
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant(secret),
          fc.constant(`X${secret.slice(1)}`),
          fc.constant(`${secret.slice(0, -1)}X`),
          fc.constant(secret.slice(0, 3)),
          fc.constant(secret + secret),
          fc.constant(''),
          fc.string({ unit: 'grapheme', maxLength: 200 }),
        ),
        (guess) => {
          calls.length = 0;
          const ok = secretMatches(secret, guess);
          expect(ok).toBe(guess === secret);
          expect(calls).toHaveLength(1);
          const [a, b] = calls[0]!;
          expect(a.length).toBe(32);
          expect(b.length).toBe(32);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('checkSecret runs the same compare for every present header (no length or prefix shortcut)', () => {
    for (const header of ['', 'x', 'abc', 'abd', 'a'.repeat(10_000)]) {
      calls.length = 0;
      checkSecret('abc', header);
      expect(calls, header.slice(0, 10)).toHaveLength(1);
    }
    calls.length = 0;
    expect(checkSecret('abc', undefined)).toMatchObject({ status: 401 });
    expect(calls).toHaveLength(0); // absence is not a secret
  });

  it('the receiving server checks X-Webhook-Secret only through that compare', async () => {
    const server = createWebhooksServer({ secret: 'topsecret', logger: { info() {}, warn() {}, error() {} } });
    server.add(() => ({ ok: true }), 'hook');
    const send = (secret: string) =>
      server.app.request('/webhooks/hook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': secret },
        body: JSON.stringify(samplePayload()),
      });
    calls.length = 0;
    expect((await send('topsecreT')).status).toBe(403);
    expect((await send('topsecret')).status).toBe(200);
    expect(calls).toHaveLength(2);
    // And no plain string comparison against the secret sneaks in next to it.
    const source = readFileSync(new URL('./server.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/(===|!==|==|!=)\s*secret\b/);
    expect(source).not.toMatch(/header\([^)]*\)\s*(===|!==)/);
  });
});
