// A local webhook receiver for a describe block: listening before its tests, closed after them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from '@playwright/test';

export interface Receiver {
  /** Where the hub should POST (set once the block's tests run). */
  url: string;
  /** The HTTP status it answers with; tests change it. */
  status: number;
  /** Requests received so far. */
  received: number;
}

/** Starts a receiver at `path` for the enclosing describe block; `body` is what it answers. */
export function receiverForBlock(path: string, body: (status: number) => string = () => '{}'): Receiver {
  const receiver: Receiver = { url: '', status: 200, received: 0 };
  let server: Server;
  test.beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        receiver.received++;
        res.writeHead(receiver.status, { 'content-type': 'application/json' }).end(body(receiver.status));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  });
  test.afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return receiver;
}
