// The console's proxy under a crowd of hostile clients (and a hub that breaks off): uploads and
// downloads aborted at random points, bodies on GET, broken chunked encodings, absolute-form request
// lines, smuggling attempts, garbage. Afterwards the server is up, its open file descriptors are back
// to their count before, and a normal request succeeds. Loopback only, a bounded number of connections.
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it, onTestFinished } from 'vitest';
import { call, closeAll, json, startConsole, startHub, type TestConsole, type TestHub } from './hub-proxy-test-kit.ts';

afterEach(closeAll);

const slow: string[] = [];
const openFds = () => readdirSync('/proc/self/fd').length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Fault =
  | { kind: 'abort-upload'; length: number; sent: number; waitMs: number; chunked: boolean }
  | { kind: 'abort-download'; path: string; after: number }
  | { kind: 'get-with-body'; length: number }
  | { kind: 'bad-chunked'; body: string }
  | { kind: 'absolute-form'; target: 'admin' | 'elsewhere' }
  | { kind: 'smuggle' }
  | { kind: 'garbage'; bytes: Uint8Array }
  | { kind: 'normal'; user: number };

const BAD_CHUNKS = [
  'zz\r\nabc\r\n0\r\n\r\n',
  '5\r\nabc\r\n0\r\n\r\n',
  '-1\r\nx\r\n0\r\n\r\n',
  'ffffffffffffffffffff\r\nx\r\n',
  '3\r\nabcXX0\r\n\r\n',
  '3;\u0000\r\nabc\r\n0\r\n\r\n',
  '0\r\nbad trailer\r\n\r\n',
  '3\nabc\n0\n\n',
];

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc
    .record({ length: fc.integer({ min: 1, max: 1 << 20 }), frac: fc.double({ min: 0, max: 0.99, noNaN: true }) })
    .chain(({ length, frac }) =>
      fc.record({
        kind: fc.constant('abort-upload' as const),
        length: fc.constant(length),
        sent: fc.constant(Math.floor(length * frac)),
        waitMs: fc.integer({ min: 0, max: 30 }),
        chunked: fc.boolean(),
      }),
    ),
  fc.record({
    kind: fc.constant('abort-download' as const),
    path: fc.constantFrom('/alice/x/resolve/main/endless.bin', '/alice/x/resolve/main/cut.bin', '/api/events'),
    after: fc.integer({ min: 0, max: 256 * 1024 }),
  }),
  fc.record({ kind: fc.constant('get-with-body' as const), length: fc.integer({ min: 1, max: 70_000 }) }),
  fc.record({ kind: fc.constant('bad-chunked' as const), body: fc.constantFrom(...BAD_CHUNKS) }),
  fc.record({
    kind: fc.constant('absolute-form' as const),
    target: fc.constantFrom('admin' as const, 'elsewhere' as const),
  }),
  fc.record({ kind: fc.constant('smuggle' as const) }),
  fc.record({ kind: fc.constant('garbage' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }) }),
  fc.record({ kind: fc.constant('normal' as const), user: fc.nat(1000) }),
);

/** A hub with an upload, a file it streams until the reader goes, one it cuts off, and an event stream. */
function hostileHub(): Promise<TestHub> {
  return startHub(
    (req, _body, res) => {
      req.on('error', () => {});
      if (req.method === 'POST') {
        let bytes = 0;
        req.on('data', (c: Buffer) => (bytes += c.length));
        req.on('end', () => json(res, 200, { bytes }));
      } else if (req.url!.endsWith('endless.bin') || req.url === '/api/events') {
        res.writeHead(200, {
          'content-type': req.url === '/api/events' ? 'text/event-stream' : 'application/octet-stream',
        });
        const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024, 7)), 2);
        res.on('close', () => clearInterval(timer));
      } else if (req.url!.endsWith('cut.bin')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 1 << 20 });
        res.write(Buffer.alloc(64 * 1024, 3), () => res.socket?.destroy());
      } else json(res, 200, { auth: req.headers.authorization ?? null, url: req.url });
    },
    { early: true },
  );
}

/** Writes `head` and `body` on a fresh connection; reads until `enough` holds or the peer closes; then closes. */
function raw(
  port: number,
  parts: (string | Uint8Array)[],
  enough: (got: Buffer) => boolean,
  waitMs = 0,
): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(safety);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const safety = setTimeout(() => {
      slow.push(parts[0]!.toString().slice(0, 60));
      done();
    }, 5000);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (enough(Buffer.concat(chunks))) done();
    });
    socket.on('connect', async () => {
      for (const p of parts) if (!socket.destroyed) socket.write(p);
      if (waitMs) await sleep(waitMs);
      if (enough(Buffer.alloc(0))) done();
    });
  });
}

const status = (got: Buffer) => /^HTTP\/1\.1 (\d{3})/.exec(got.toString('latin1'))?.[1];
/** Read to the end: every request that wants its answer says `Connection: close`, so the server closes after it. */
const toTheEnd = () => false;

async function run(f: Fault, c: TestConsole, adminPort: number): Promise<void> {
  const host = 'Host: 127.0.0.1\r\nConnection: close\r\n';
  switch (f.kind) {
    case 'abort-upload': {
      const framing = f.chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${f.length}\r\n`;
      const body = Buffer.alloc(f.sent, 1);
      const sent = f.chunked ? [`${f.length.toString(16)}\r\n`, body] : [body];
      await raw(c.port, [`POST /api/upload HTTP/1.1\r\n${host}${framing}\r\n`, ...sent], () => true, f.waitMs);
      return;
    }
    case 'abort-download':
      await raw(c.port, [`GET ${f.path} HTTP/1.1\r\n${host}\r\n`], (got) => got.length > f.after);
      return;
    case 'get-with-body': {
      const got = await raw(
        c.port,
        [`GET /api/whoami-v2 HTTP/1.1\r\n${host}Content-Length: ${f.length}\r\n\r\n`, Buffer.alloc(f.length, 'a')],
        toTheEnd,
      );
      expect(status(got)).toBe('200');
      return;
    }
    case 'bad-chunked': {
      const got = await raw(
        c.port,
        [`POST /api/upload HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n${f.body}`],
        toTheEnd,
      );
      if (got.length) expect(['400', '200']).toContain(status(got));
      return;
    }
    case 'absolute-form': {
      const target =
        f.target === 'admin' ? `http://127.0.0.1:${adminPort}/admin` : 'http://elsewhere.example/api/whoami-v2';
      await raw(
        c.port,
        [`GET ${target} HTTP/1.1\r\nHost: ${new URL(target).host}\r\nConnection: close\r\n\r\n`],
        toTheEnd,
      );
      return;
    }
    case 'smuggle': {
      const head = `POST /api/upload HTTP/1.1\r\n${host}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const got = await raw(c.port, [head, '0\r\n\r\nGET /api/whoami-v2 HTTP/1.1\r\n\r\n'], toTheEnd);
      expect(status(got)).toBe('400');
      return;
    }
    case 'garbage':
      await raw(c.port, [f.bytes], () => true, 20);
      return;
    case 'normal': {
      const answer = await call(c.port, '/api/whoami-v2', { headers: { authorization: `Bearer hf_user${f.user}` } });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual({ auth: `Bearer hf_user${f.user}`, url: '/api/whoami-v2' });
    }
  }
}

/** Lets every idle connection go, then waits (bounded) for the descriptor count to come down to `target`. */
async function settle(hub: TestHub, c: TestConsole, target: number): Promise<number> {
  for (const end = Date.now() + 10_000; Date.now() < end; await sleep(50)) {
    hub.server.closeIdleConnections();
    c.server.closeIdleConnections();
    if (openFds() <= target) break;
  }
  return openFds();
}

it('survives a crowd of hostile clients: up, no descriptor leaked, and a normal request answered after', async () => {
  const hub = await hostileHub();
  const admin = await startHub((_req, _body, res) => res.end('secret'));
  const lines: string[] = [];
  const c = await startConsole({ hubUrl: hub.url, answerTimeoutMs: 3000, log: (l) => lines.push(l) });
  const adminPort = Number(new URL(admin.url).port);
  // What would end the server's process (vitest keeps its own alive, so the test watches for it).
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  process.on('uncaughtException', onUncaught);
  onTestFinished(() => void process.off('uncaughtException', onUncaught));
  expect((await call(c.port, '/api/whoami-v2')).status).toBe(200);
  hub.server.closeIdleConnections();
  c.server.closeIdleConnections();
  await sleep(300);
  const before = openFds();

  const faults = fc.sample(fault, { numRuns: 200, seed: 31 });
  expect(new Set(faults.map((f) => f.kind)).size).toBe(8);
  for (let i = 0; i < faults.length; i += 12)
    await Promise.all(faults.slice(i, i + 12).map((f) => run(f, c, adminPort)));

  const after = await call(c.port, '/api/whoami-v2', { headers: { authorization: 'Bearer hf_after' } });
  expect(after.status).toBe(200);
  expect(JSON.parse(after.body.toString())).toEqual({ auth: 'Bearer hf_after', url: '/api/whoami-v2' });
  expect(admin.seen).toHaveLength(0);
  expect(slow).toEqual([]);
  expect(uncaught).toEqual([]);
  // A hub that breaks off gets one line each; nothing else is logged, the clients' aborts least of all.
  expect(
    lines.filter(
      (l) => !l.endsWith('/alice/x/resolve/main/cut.bin: the hub at ' + hub.url + ' broke off its answer (ECONNRESET)'),
    ),
  ).toEqual([]);
  expect(await settle(hub, c, before)).toBeLessThanOrEqual(before);
});
