// The page's sign-in form under attack: a huge body, guessing the secret, framing the page, and
// what its session cookie says about itself.
import { describe, expect, it } from 'vitest';
import { MAX_SIGN_IN_BYTES } from './deliveries-api.ts';
import { SESSION_MAX_AGE_SECONDS } from './page-auth.ts';
import { createWebhooksServer } from './server.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { recordingLogger } from './test-logger.ts';

const SECRET = 'page-secret';
const server = () => createWebhooksServer({ logger: recordingLogger(), secret: SECRET });
const form = (secret: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams({ secret }).toString(),
});

/** A form body of `total` bytes sent in 64 KB chunks; `pulled` counts what the server read. */
function hugeBody(total: number) {
  const chunk = new TextEncoder().encode(`secret=${'x'.repeat(64 * 1024 - 7)}`);
  const counter = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (counter.pulled >= total) return ctl.close();
      counter.pulled += chunk.length;
      ctl.enqueue(chunk);
    },
  });
  return { body, counter };
}

describe('POST /sign-in', () => {
  it('refuses a body of unknown length with 413 once past the bound, without reading the rest', async () => {
    const { body, counter } = hugeBody(64 * 1024 * 1024);
    const res = await server().app.request('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(String(MAX_SIGN_IN_BYTES));
    expect(counter.pulled).toBeLessThan(1024 * 1024);
  });

  it('refuses a declared Content-Length past the bound before reading any of the body', async () => {
    const { body, counter } = hugeBody(64 * 1024 * 1024);
    const res = await server().app.request('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(200 * 1024 * 1024) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(64 * 1024);
  });

  it('sets an HttpOnly, SameSite=Strict cookie that expires, Secure when the client came over HTTPS', async () => {
    const plain = await server().app.request('/sign-in', form(SECRET));
    expect(plain.status).toBe(303);
    const cookie = plain.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toContain(`Max-Age=${SESSION_MAX_AGE_SECONDS}`);
    expect(cookie).not.toMatch(/Secure/);
    const proxied = await server().app.request('/sign-in', form(SECRET, { 'x-forwarded-proto': 'https' }));
    expect(proxied.headers.get('set-cookie')).toMatch(/; Secure/);
    const tls = await server().app.request('https://receiver.test/sign-in', form(SECRET));
    expect(tls.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('slows down repeated failed sign-ins: 429 with Retry-After, even for the right secret, until the wait ends', async () => {
    const s = server();
    for (let i = 0; i < 5; i++) expect((await s.app.request('/sign-in', form(`guess-${i}`))).status).toBe(403);
    expect((await s.app.request('/sign-in', form('guess-5'))).status).toBe(403);
    const blocked = await s.app.request('/sign-in', form(SECRET));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('SignInThrottle', () => {
  it('lets a few failures through, then doubles the wait up to the cap; a success clears it', () => {
    let now = 0;
    const t = new SignInThrottle({ freeFailures: 2, baseMs: 1000, maxMs: 4000, now: () => now });
    t.failed('a');
    t.failed('a');
    expect(t.waitMs('a')).toBe(0);
    const waits = [];
    for (let i = 0; i < 5; i++) {
      t.failed('a');
      waits.push(t.waitMs('a'));
      now += t.waitMs('a');
    }
    expect(waits).toEqual([1000, 2000, 4000, 4000, 4000]);
    expect(t.waitMs('b')).toBe(0);
    t.failed('a');
    t.succeeded('a');
    expect(t.waitMs('a')).toBe(0);
  });

  it('remembers a bounded number of clients, the most recently failed ones', () => {
    const t = new SignInThrottle({ freeFailures: 0, maxClients: 100, now: () => 0 });
    for (let i = 0; i < 10_000; i++) t.failed(`client-${i}`);
    expect(t.tracked).toBe(100);
    expect(t.waitMs('client-9999')).toBeGreaterThan(0);
    expect(t.waitMs('client-0')).toBe(0);
  });
});

describe('the landing page', () => {
  it('may not be framed and runs nothing: a CSP with frame-ancestors none, also on a failed sign-in', async () => {
    const s = server();
    for (const res of [await s.app.request('/'), await s.app.request('/sign-in', form('wrong'))]) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});
