// `npm start -- --hub-url <url>`: the console's server passes the hub's API and file routes through
// to that hub, so the page talks only to its own origin and the hub needs no CORS. Bodies stream
// both ways untouched (compressed stays compressed, Range and server-sent events pass as they come).
// The user's Authorization header goes on as sent and is never stored or logged. See docs/hub-proxy.md.
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { MiddlewareHandler } from 'hono';

/** What the hub serves and the console calls: its API and the repository file routes. */
const HUB_PATH = /^\/(?:api(?:\/|$)|(?:(?:datasets|spaces)\/)?[^/]+(?:\/[^/]+)?\/resolve\/)/;

export function isHubPath(path: string): boolean {
  return HUB_PATH.test(path);
}

/** Headers of one connection, not of the message (RFC 9110 §7.6.1): never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
]);
/** Cookies of the console's origin are not the hub's, and the hub's would land on the console's origin. */
const NOT_PASSED = new Set(['host', 'cookie', 'set-cookie']);

const MAX_REDIRECTS = 5;

export interface HubProxyOptions {
  /** The hub, e.g. https://huggingface.co (a path prefix is kept). */
  hubUrl: string;
  /** How long to wait for the hub's answer headers (the body then streams as long as it lasts). */
  answerTimeoutMs?: number;
  /** Where a failed call is reported, one line without headers or query; stderr by default. */
  log?: (line: string) => void;
}

/** The headers of `from` worth passing on: no hop-by-hop ones, none that `Connection` names, no cookies. */
export function endToEndHeaders(from: Iterable<[string, string | string[] | undefined]>): [string, string][] {
  const entries = [...from];
  const named = new Set(
    entries
      .filter(([k]) => k.toLowerCase() === 'connection')
      .flatMap(([, v]) => [v ?? ''].flat().flatMap((s) => s.split(',')))
      .map((s) => s.trim().toLowerCase()),
  );
  const out: [string, string][] = [];
  for (const [key, value] of entries) {
    const k = key.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(k) || NOT_PASSED.has(k) || named.has(k)) continue;
    for (const v of [value].flat()) out.push([k, v]);
  }
  return out;
}

/** A JSON error the console shows as it shows the hub's own (`{ error }`, and X-Error-Message). */
function proxyError(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { 'content-type': 'application/json', 'x-error-message': message.replace(/[^\x20-\x7e]/g, '?') },
  });
}

/** Answers that carry no body however the hub sends them. */
const NO_BODY = new Set([101, 204, 205, 304]);

export function createHubProxy(opts: HubProxyOptions): (req: Request) => Promise<Response> {
  const hub = new URL(opts.hubUrl);
  const prefix = hub.pathname.replace(/\/+$/, '');
  const hubName = `${hub.origin}${prefix}`;
  const answerTimeoutMs = opts.answerTimeoutMs ?? 30_000;
  const log = opts.log ?? ((line: string) => console.error(line));

  return async (req) => {
    const url = new URL(req.url);
    const target = new URL(`${hub.origin}${prefix}${url.pathname}${url.search}`);
    const headers = endToEndHeaders(req.headers.entries());
    // GET and HEAD carry no body; the others stream theirs on, whatever its size (the hub decides).
    const body = req.body && req.method !== 'GET' && req.method !== 'HEAD' ? req.body : null;
    try {
      // The hub's resolve routes answer 302 to a CDN: followed here, so the page stays same-origin.
      let answer = await send(req.method, target, headers, body, req.signal, answerTimeoutMs);
      let at = target;
      for (let hops = 0; isRedirect(answer) && (req.method === 'GET' || req.method === 'HEAD'); hops++) {
        if (hops === MAX_REDIRECTS)
          return proxyError(502, `the hub at ${hubName} redirected more than ${MAX_REDIRECTS} times`);
        at = new URL(answer.headers.location!, at);
        answer.resume();
        // A signed CDN address needs no token, and another host must not get the user's.
        const sameHost = at.origin === hub.origin;
        const nextHeaders = headers.filter(([k]) => sameHost || k !== 'authorization');
        answer = await send(req.method, at, nextHeaders, null, req.signal, answerTimeoutMs);
      }
      return toResponse(answer, req.method, hub.origin, prefix);
    } catch (e) {
      if (req.signal.aborted) return proxyError(499, 'the page closed the request');
      const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      log(`[hub-proxy] ${req.method} ${url.pathname}: the hub at ${hubName} did not answer (${reason})`);
      return proxyError(502, `the hub at ${hubName} did not answer (${reason})`);
    }
  };
}

/** For the console's server: the hub's routes go to the hub, everything else (the page) on to `next`. */
export function hubProxyMiddleware(opts: HubProxyOptions): MiddlewareHandler {
  const proxy = createHubProxy(opts);
  return (c, next) => (isHubPath(c.req.path) ? proxy(c.req.raw) : next());
}

function isRedirect(answer: IncomingMessage): boolean {
  return [301, 302, 303, 307, 308].includes(answer.statusCode ?? 0) && !!answer.headers.location;
}

function send(
  method: string,
  target: URL,
  headers: [string, string][],
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal,
  answerTimeoutMs: number,
): Promise<IncomingMessage> {
  const outgoing: OutgoingHttpHeaders = { host: target.host };
  for (const [k, v] of headers) {
    const had = outgoing[k];
    outgoing[k] = had === undefined ? v : [had, v].flat().map(String);
  }
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method,
      headers: outgoing,
      signal,
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${answerTimeoutMs} ms`)),
      answerTimeoutMs,
    );
    request.once('response', (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
    // `on`, not `once`: the connection can still fail after the answer began (the body then ends with it).
    request.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    if (body) Readable.fromWeb(body as NodeReadableStream).pipe(request);
    else request.end();
  });
}

function toResponse(answer: IncomingMessage, method: string, hubOrigin: string, prefix: string): Response {
  const headers = new Headers();
  for (const [k, v] of endToEndHeaders(Object.entries(answer.headers))) headers.append(k, v);
  // Addresses on the hub become paths on the console: a redirect that is not followed (a write), and
  // the next page of a list (`Link: <https://hub/api/...>; rel="next"`, which the client follows on its own origin only).
  const hubBase = `${hubOrigin}${prefix}/`;
  const location = headers.get('location');
  if (location?.startsWith(hubBase)) headers.set('location', location.slice(hubBase.length - 1));
  const link = headers.get('link');
  if (link) headers.set('link', link.split(`<${hubBase}`).join('</'));
  const status = answer.statusCode ?? 502;
  if (status < 200) return proxyError(502, `the hub answered ${status}, which this console does not pass on`);
  if (method === 'HEAD' || NO_BODY.has(status)) {
    answer.resume();
    return new Response(null, { status, statusText: answer.statusMessage ?? '', headers });
  }
  const body = Readable.toWeb(answer) as ReadableStream<Uint8Array>;
  return new Response(body, { status, statusText: answer.statusMessage ?? '', headers });
}
