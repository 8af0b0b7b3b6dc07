// Test support for the console's proxy: a throwaway hub and the console's server on 127.0.0.1, and a
// raw HTTP call (fetch would hide Transfer-Encoding and Connection). Only tests import this file.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { hubProxyMiddleware, type HubProxyOptions } from './hub-proxy.ts';
import { proxiedSecurityHeaders, withSecurityHeaders } from './security-headers.ts';

export const TOKEN = 'hf_proxyTestToken123';

const closers: (() => Promise<void>)[] = [];
/** Closes every server the kit started, newest first (for `afterEach`). */
export async function closeAll(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close();
}
/** Closes the newest server the kit started (a hub that went away). */
export async function closeNewest(): Promise<void> {
  await closers.pop()?.();
}

export type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

function closerOf(server: Server): () => Promise<void> {
  return () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
}

export interface TestHub {
  url: string;
  seen: IncomingMessage[];
  server: Server;
}

/**
 * A throwaway hub on 127.0.0.1 that hands every request to `handle`: with its whole body, or with
 * `early`, as soon as the headers are in (a hub that answers without reading the body).
 */
export async function startHub(handle: Handler, { early = false } = {}): Promise<TestHub> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    if (early) return handle(req, Buffer.alloc(0), res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(closerOf(server));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

export interface TestConsole {
  port: number;
  url: string;
  server: Server;
}

/** The console's server as serve.ts builds it with --hub-url: its headers, the proxy, the page behind it. */
export async function startConsole(opts: HubProxyOptions): Promise<TestConsole> {
  const app = new Hono();
  app.use('*', withSecurityHeaders(proxiedSecurityHeaders));
  app.use('*', hubProxyMiddleware(opts));
  app.get('*', (c) => c.text('the page'));
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  closers.push(closerOf(server));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}`, server };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP call on a connection of its own (no pooling, so it leaves no socket open behind it). */
export function call(
  port: number,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.end(init.body);
  });
}

export const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
};
