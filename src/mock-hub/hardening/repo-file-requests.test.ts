// The repo file routes live outside the route table (they stream bytes), so the generated suite
// in invalid-requests.test.ts does not reach them: arbitrary paths, revisions and Range headers
// here, each answered with a 2xx/206/304 for a real file or a 4xx JSON error, never a 5xx.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshot, testHub } from '../test-support.ts';

const hub = await testHub();
hub.registerRepoFiles('alice/tiny', [{ path: 'w.bin', bytes: new Uint8Array(64) }]);

/** Path segments with the characters that trip decoders: stray and truncated percent escapes, unicode, dots. */
const segment = fc
  .oneof(
    fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/),
    fc.constantFrom('%', '%Z', '%ZZ', '%E0%A4%A', '%C3', '%00', '%2F', '%2e%2e', 'ünï', 'w.bin', 'main', '<script>'),
    fc.string({ unit: fc.constantFrom('a', '%', '2', 'F', 'E', '0', '.', '~'), minLength: 1, maxLength: 8 }),
  )
  .filter((s) => !/^\.+$/.test(s));

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await hub.app.request(path, { headers });
  const text = res.status >= 400 ? await res.text() : '';
  return { res, text };
}

describe('repo file routes under bad input', () => {
  it('arbitrary namespaces, repos, revisions and file paths: 4xx JSON errors, never a 5xx', async () => {
    const before = snapshot(hub);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('', 'datasets/', 'spaces/'),
        fc.array(segment, { minLength: 4, maxLength: 6 }),
        async (prefix, [ns, repo, rev, ...rest]) => {
          const url = `/${prefix}${ns}/${repo}/resolve/${rev}/${rest.join('/')}`;
          const { res, text } = await get(url);
          expect(res.status, url).toBeLessThan(500);
          // A dot segment (`%2e%2e`) is resolved by the URL parser first and may leave the route.
          const routed = /^\/(?:datasets\/|spaces\/)?[^/]+\/[^/]+\/resolve\/[^/]+\/.+/.test(
            new URL(url, 'http://h').pathname,
          );
          if (routed && res.status >= 400) {
            expect(res.headers.get('content-type'), url).toMatch(/^application\/json/);
            expect(JSON.parse(text), url).toHaveProperty('error');
            expect(res.headers.get('x-error-message'), url).toBeTruthy();
          }
        },
      ),
      { numRuns: 50 },
    );
    expect(snapshot(hub)).toBe(before);
  });

  it('arbitrary Range headers: 200, 206 inside the file, or 416 with Content-Range, never a 5xx', async () => {
    const range = fc.oneof(
      fc
        .tuple(fc.option(fc.nat(200), { nil: undefined }), fc.option(fc.nat(200), { nil: undefined }))
        .map(([a, b]) => `bytes=${a ?? ''}-${b ?? ''}`),
      fc.string({ maxLength: 30 }),
      fc.constantFrom('bytes=0-1,3-4', 'items=0-1', 'bytes=99999999999999999999-', 'bytes=-0', 'bytes= 1-2'),
    );
    await fc.assert(
      fc.asyncProperty(range, async (r) => {
        const { res } = await get('/alice/tiny/resolve/main/w.bin', { range: r });
        expect([200, 206, 416], r).toContain(res.status);
        if (res.status === 206) {
          const m = /^bytes (\d+)-(\d+)\/64$/.exec(res.headers.get('content-range') ?? '');
          expect(m, r).not.toBeNull();
          expect(Number(m![1])).toBeLessThanOrEqual(Number(m![2]));
          expect(Number(m![2])).toBeLessThan(64);
          expect((await res.arrayBuffer()).byteLength).toBe(Number(m![2]) - Number(m![1]) + 1);
        }
        if (res.status === 416) expect(res.headers.get('content-range')).toBe('bytes */64');
      }),
      { numRuns: 50 },
    );
  });
});
