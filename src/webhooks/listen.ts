import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

type Fetch = (request: Request) => Response | Promise<Response>;

/** Serves `fetch` over HTTP; port 0 picks a free one. Resolves once the socket is bound. */
export function listen(fetch: Fetch, port: number, host = '127.0.0.1'): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${shownHost}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            // Keep-alive sockets (autocannon, fetch) would otherwise hold close() open.
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
