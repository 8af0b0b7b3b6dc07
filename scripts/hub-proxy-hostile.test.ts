// Attacks on the console's proxy from a client and from a hub, each reproduced as it was found.
import { connect } from 'node:net';
import { request } from 'node:http';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { call, closeAll, json, startConsole, startHub } from './hub-proxy-test-kit.ts';

afterEach(closeAll);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds, polling; fails the test after `ms`. */
async function until(check: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !check(); await sleep(10)) if (Date.now() > end) throw new Error('never happened');
}

describe('a client that breaks off', () => {
  it('an upload aborted halfway costs that request only: the hub sees it cut, the server keeps serving', async () => {
    // What would end the server's process (vitest keeps its own alive, so the test watches for it).
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    onTestFinished(() => void process.off('uncaughtException', onUncaught));
    let hubRequestClosedEarly = false;
    const hub = await startHub(
      (req, _body, res) => {
        req.on('data', () => {});
        req.on('close', () => (hubRequestClosedEarly = !req.complete));
        req.on('end', () => json(res, 200, {}));
      },
      { early: true },
    );
    const console_ = await startConsole({ hubUrl: hub.url, log: () => {} });
    const socket = connect(console_.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      'POST /api/repos/alice/ckpt/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer hf_a\r\n' +
        'Content-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n',
    );
    socket.write(Buffer.alloc(64 * 1024, 1));
    await until(() => hub.seen.length === 1);
    socket.destroy();
    // The request to the hub is destroyed, not left waiting for the rest of a body that never comes.
    await until(() => hubRequestClosedEarly);
    expect((await call(console_.port, '/api/whoami-v2')).status).toBe(200);
    expect(uncaught).toEqual([]);
  });
});

describe('the wait for the hub', () => {
  /** A chunked upload that sends `chunks` pieces `gapMs` apart, then reads the answer. */
  function slowUpload(port: number, chunks: number, gapMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/upload', method: 'POST', agent: false });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      void (async () => {
        for (let i = 0; i < chunks; i++) {
          req.write(Buffer.alloc(1024, i));
          await sleep(gapMs);
        }
        req.end();
      })();
    });
  }

  it('an upload slower than the timeout still succeeds: the wait counts from the end of the body', async () => {
    const hub = await startHub((_req, body, res) => json(res, 200, { bytes: body.length }));
    const console_ = await startConsole({ hubUrl: hub.url, answerTimeoutMs: 200, log: () => {} });
    expect(await slowUpload(console_.port, 8, 80)).toBe(200);
  });

  it('a hub that takes the whole body and never answers: 502 once the wait after the body is over', async () => {
    const hub = await startHub(() => {});
    const console_ = await startConsole({ hubUrl: hub.url, answerTimeoutMs: 200, log: () => {} });
    const started = Date.now();
    expect(await slowUpload(console_.port, 4, 80)).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 80 + 200 - 20);
  });
});
