import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

const corsMiddleware = cors({
  origin: '*',
  allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type', 'Range', 'If-None-Match', 'If-Range', 'X-Request-Id'],
  exposeHeaders: [
    'X-Request-Id',
    'X-Error-Message',
    'Content-Disposition',
    'Link',
    'Retry-After',
    'Content-Range',
    'Accept-Ranges',
    'Content-Length',
    'ETag',
    'X-Repo-Commit',
  ],
  maxAge: 600,
});

/**
 * CORS for any origin (the dashboard may be served elsewhere), a request id on every response,
 * and Cross-Origin-Resource-Policy so cross-origin-isolated (COEP) pages may fetch files and JSON.
 */
export const hubHeaders: MiddlewareHandler = async (c, next) => {
  const requestId = randomUUID();
  // A preflight is answered by the CORS middleware itself, without reaching a route.
  const preflight = await corsMiddleware(c, next);
  if (preflight) c.res = preflight;
  setHubHeaders(c.res.headers, requestId);
};

/** The same without CORS (`--no-cors`): a browser page on another origin cannot read any answer. */
export const hubHeadersWithoutCors: MiddlewareHandler = async (c, next) => {
  const requestId = randomUUID();
  await next();
  setHubHeaders(c.res.headers, requestId);
};

function setHubHeaders(headers: Headers, requestId: string): void {
  headers.set('X-Request-Id', requestId);
  headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
}
