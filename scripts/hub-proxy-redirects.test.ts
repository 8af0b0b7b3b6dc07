// Where the proxy follows a hub's redirect: the hub's own origin, or public addresses only.
import fc from 'fast-check';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedOnlyLookup, isPublicAddress, RedirectRefused } from './hub-proxy-redirects.ts';
import { call, closeAll, startConsole, startHub } from './hub-proxy-test-kit.ts';

afterEach(closeAll);

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));

describe('public addresses', () => {
  it('loopback, private, link-local, CGNAT and the unspecified ranges are never public, in any spelling', () => {
    const inside = (first: number, second: fc.Arbitrary<number> = fc.nat(255)) =>
      fc.tuple(second, fc.nat(255), fc.nat(255)).map(([b, c, d]) => `${first}.${b}.${c}.${d}`);
    const notPublic = fc.oneof(
      inside(0),
      inside(10),
      inside(127),
      inside(169, fc.constant(254)),
      inside(172, fc.integer({ min: 16, max: 31 })),
      inside(192, fc.constant(168)),
      inside(100, fc.integer({ min: 64, max: 127 })),
    );
    fc.assert(
      fc.property(notPublic, (a) => {
        expect(isPublicAddress(a), a).toBe(false);
        expect(isPublicAddress(`::ffff:${a}`), `::ffff:${a}`).toBe(false);
      }),
    );
    for (const a of ['::1', '::', 'fe80::1', 'fd00::1', 'fc00::5', '::ffff:7f00:1', '64:ff9b::7f00:1', 'localhost', ''])
      expect(isPublicAddress(a), a).toBe(false);
  });

  it('an IPv4-mapped IPv6 address is judged as the IPv4 address it carries', () => {
    fc.assert(
      fc.property(v4, (a) => {
        expect(isPublicAddress(`::ffff:${a}`), a).toBe(isPublicAddress(a));
      }),
    );
  });

  it("the CDNs and resolvers on the internet are public (the real hub's CDN must keep working)", () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '18.154.227.67', '13.35.7.1', '2606:4700:4700::1111', '2600:9000:2000::1'])
      expect(isPublicAddress(a), a).toBe(true);
  });
});

describe('the lookup of a redirect off the hub', () => {
  const lookup = (fn: LookupFunction, host: string, all: boolean) =>
    new Promise<unknown>((resolve) =>
      fn(host, { all }, (error: Error | null, address: string | LookupAddress[]) => resolve(error ?? address)),
    );
  const publicOnly = allowedOnlyLookup('http://x', isPublicAddress);

  it('passes a public address, one or all of them as asked', async () => {
    expect(await lookup(publicOnly, '8.8.8.8', false)).toBe('8.8.8.8');
    expect(await lookup(publicOnly, '8.8.8.8', true)).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('refuses a name that resolves to loopback (localhost), as well as a loopback literal', async () => {
    for (const host of ['localhost', '127.0.0.1', '::1'])
      for (const all of [false, true])
        expect(await lookup(publicOnly, host, all), host).toBeInstanceOf(RedirectRefused);
  });
});

describe('the proxy and redirects', () => {
  /** An internal service beside the console that must never be reached through it. */
  async function internal() {
    return startHub((_req, _body, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'));
  }

  it('refuses a redirect to loopback, link-local or private addresses, by literal or by name', async () => {
    const admin = await internal();
    const adminPort = new URL(admin.url).port;
    const targets = [
      `http://127.0.0.1:${adminPort}/admin`,
      `http://localhost:${adminPort}/admin`,
      `http://[::1]:${adminPort}/admin`,
      `http://[::ffff:127.0.0.1]:${adminPort}/admin`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'file:///etc/passwd',
    ];
    const hub = await startHub((req, _body, res) =>
      res.writeHead(302, { location: targets[Number(req.url!.slice(-1))] }).end(),
    );
    const lines: string[] = [];
    const console_ = await startConsole({ hubUrl: hub.url, answerTimeoutMs: 2000, log: (l) => lines.push(l) });
    for (const [i, target] of targets.entries()) {
      const answer = await call(console_.port, `/alice/x/resolve/main/f${i}`);
      expect(answer.status, target).toBe(502);
      expect(JSON.parse(answer.body.toString()).error, target).toMatch(
        /was not followed: it redirected to .*not a public address/,
      );
    }
    expect(admin.seen).toHaveLength(0);
    expect(lines).toHaveLength(targets.length);
  });

  it("follows a redirect within the hub's own origin, even on loopback", async () => {
    const hub = await startHub((req, _body, res) => {
      if (req.url === '/alice/x/resolve/main/f') res.writeHead(307, { location: `${hubUrl()}/api/cache/f` }).end();
      else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('bytes');
    });
    const hubUrl = () => hub.url;
    const console_ = await startConsole({ hubUrl: hub.url });
    const answer = await call(console_.port, '/alice/x/resolve/main/f');
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('bytes');
  });
});
