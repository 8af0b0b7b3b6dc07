// A webhook receiver on loopback for the specs that look at deliveries: it answers every POST
// with `status` (settable between deliveries) and the body `answer(status)` makes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  /** The receiver's URL for `path` (e.g. `/webhooks/e2e`). */
  url(path: string): string;
  status: number;
  /** Requests received so far. */
  received: number;
  close(): Promise<void>;
}

export async function startReceiver(answer: (status: number) => string = () => '{}'): Promise<Receiver> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.received++;
      res.writeHead(receiver.status, { 'content-type': 'application/json' }).end(answer(receiver.status));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver: Receiver = {
    url: (path) => `${base}${path}`,
    status: 200,
    received: 0,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  return receiver;
}
