// The sign-in form over a real socket: a client that keeps sending gets 413 early, and failed
// sign-ins are counted per peer address.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from './listen.ts';
import { createWebhooksServer } from './server.ts';
import { recordingLogger } from './test-logger.ts';

/** Sends an endless chunked form body; resolves with the answer's status line and the bytes sent by then. */
function endlessSignIn(port: number, limitBytes: number): Promise<{ status: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunk = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
    let sent = 0;
    let answer = '';
    const pump = () => {
      while (sent < limitBytes && answer === '') {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      socket.destroy();
      resolve({ status: answer.split('\r\n')[0]!, sent });
    });
    socket.on('error', (err) => (answer ? undefined : reject(err)));
    socket.on('connect', () => {
      socket.write(
        'POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
          'Transfer-Encoding: chunked\r\n\r\n7\r\nsecret=\r\n',
      );
      pump();
    });
  });
}

describe('sign-in over loopback', () => {
  let listening: Listening;
  beforeAll(async () => {
    listening = await createWebhooksServer({ secret: 'loop', logger: recordingLogger() }).listen(0);
  });
  afterAll(async () => {
    await listening.close();
  });

  it('answers 413 to a body that does not end, long before the client has sent 64 MB', async () => {
    const { status, sent } = await endlessSignIn(listening.port, 64 * 1024 * 1024);
    expect(status).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('counts failed sign-ins per peer address: the sixth wrong guess is followed by 429', async () => {
    const signIn = (secret: string) =>
      fetch(`${listening.url}/sign-in`, { method: 'POST', body: new URLSearchParams({ secret }), redirect: 'manual' });
    for (let i = 0; i < 6; i++) expect((await signIn(`guess-${i}`)).status).toBe(403);
    const blocked = await signIn('loop');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
