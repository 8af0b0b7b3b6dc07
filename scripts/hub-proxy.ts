// `npm start -- --hub-url <url>`: the console's server passes the hub's API and file routes through
// to that hub, so the page talks only to its own origin and the hub needs no CORS. Bodies stream
// both ways untouched (compressed stays compressed, Range and server-sent events pass as they come).
// The user's Authorization header goes on as sent and is never stored or logged. A client or a hub
// that breaks off, lies about lengths or redirects inwards costs one request, never the server.
// See docs/hub-proxy.md.
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { MiddlewareHandler } from 'hono';
import { answerHeaders, requestHeaders } from './hub-proxy-headers.ts';
import { allowedOnlyLookup, isPublicAddress, literalAddress, RedirectRefused } from './hub-proxy-redirects.ts';

export { endToEndHeaders } from './hub-proxy-headers.ts';

/** What the hub serves and the console calls: its API and the repository file routes. */
const HUB_PATH = /^\/(?:api(?:\/|$)|(?:(?:datasets|spaces)\/)?[^/]+(?:\/[^/]+)?\/resolve\/)/;

export function isHubPath(path: string): boolean {
  return HUB_PATH.test(path);
}

const MAX_REDIRECTS = 5;

export interface HubProxyOptions {
  /** The hub, e.g. https://huggingface.co (a path prefix is kept). */
  hubUrl: string;
  /**
   * How long to wait for the hub's answer headers once the request is sent, its body included (an
   * upload takes as long as it takes), and for the connection to the hub to open.
   */
  answerTimeoutMs?: number;
  /** The addresses a redirect off the hub's origin may reach: public ones (tests widen it to loopback). */
  redirectAddressAllowed?: (address: string) => boolean;
  /** Where a failed call is reported, one line without headers or query; stderr by default. */
  log?: (line: string) => void;
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

/** The page's own connection, where the server has one (@hono/node-server's `outgoing`). */
interface PageConnection {
  destroy(): void;
}

export function createHubProxy(opts: HubProxyOptions): (req: Request, page?: PageConnection) => Promise<Response> {
  const hub = new URL(opts.hubUrl);
  const prefix = hub.pathname.replace(/\/+$/, '');
  const hubName = `${hub.origin}${prefix}`;
  const answerTimeoutMs = opts.answerTimeoutMs ?? 30_000;
  const allowed = opts.redirectAddressAllowed ?? isPublicAddress;
  const log = opts.log ?? ((line: string) => console.error(line));

  return async (req, page) => {
    const url = new URL(req.url);
    const target = new URL(`${hub.origin}${prefix}${url.pathname}${url.search}`);
    // GET and HEAD carry no body; the others stream theirs on, whatever its size (the hub decides).
    const body = req.body && req.method !== 'GET' && req.method !== 'HEAD' ? req.body : null;
    const headers = requestHeaders(req.headers.entries(), body !== null);
    const timing = { answerTimeoutMs, signal: req.signal };
    try {
      // The hub's resolve routes answer 302 to a CDN: followed here, so the page stays same-origin.
      let answer = await send(req.method, target, headers, body, timing);
      let at = target;
      for (let hops = 0; isRedirect(answer) && (req.method === 'GET' || req.method === 'HEAD'); hops++) {
        answer.resume();
        if (hops === MAX_REDIRECTS)
          return proxyError(502, `the hub at ${hubName} redirected more than ${MAX_REDIRECTS} times`);
        at = new URL(answer.headers.location!, at);
        // A signed CDN address needs no token, and another host must not get the user's.
        const sameOrigin = at.origin === hub.origin;
        const nextHeaders = headers.filter(([k]) => sameOrigin || k !== 'authorization');
        const lookup = sameOrigin ? undefined : offHubLookup(at, allowed);
        answer = await send(req.method, at, nextHeaders, null, { ...timing, lookup });
      }
      // A hub that breaks off mid-answer: one line, and the page's connection closes as the hub's did.
      const brokeOff = (e: Error) => {
        log(`[hub-proxy] ${req.method} ${url.pathname}: the hub at ${hubName} broke off its answer (${reason(e)})`);
        page?.destroy();
      };
      return toResponse(answer, req.method, `${hubName}/`, page ? brokeOff : undefined);
    } catch (e) {
      if (req.signal.aborted) return proxyError(499, 'the page closed the request');
      if (e instanceof RedirectRefused) {
        log(`[hub-proxy] ${req.method} ${url.pathname}: the hub at ${hubName} was not followed: ${e.message}`);
        return proxyError(502, `the hub at ${hubName} was not followed: ${e.message}`);
      }
      log(`[hub-proxy] ${req.method} ${url.pathname}: the hub at ${hubName} did not answer (${reason(e)})`);
      return proxyError(502, `the hub at ${hubName} did not answer (${reason(e)})`);
    }
  };
}

const reason = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** For the console's server: the hub's routes go to the hub, everything else (the page) on to `next`. */
export function hubProxyMiddleware(opts: HubProxyOptions): MiddlewareHandler {
  const proxy = createHubProxy(opts);
  return (c, next) => {
    if (!isHubPath(c.req.path)) return next();
    return proxy(c.req.raw, (c.env as { outgoing?: PageConnection } | undefined)?.outgoing);
  };
}

function isRedirect(answer: IncomingMessage): boolean {
  return [301, 302, 303, 307, 308].includes(answer.statusCode ?? 0) && !!answer.headers.location;
}

/** Off the hub's origin, only http(s) and allowed addresses: a literal is judged here, a name as it resolves. */
function offHubLookup(at: URL, allowed: (address: string) => boolean): LookupFunction {
  if (at.protocol !== 'http:' && at.protocol !== 'https:') throw new RedirectRefused(at.protocol, 'another scheme');
  const literal = literalAddress(at.hostname);
  if (literal !== undefined && !allowed(literal)) throw new RedirectRefused(at.origin, literal);
  return allowedOnlyLookup(at.origin, allowed);
}

interface Timing {
  answerTimeoutMs: number;
  signal: AbortSignal;
  lookup?: LookupFunction | undefined;
}

/**
 * One request to the hub; resolves with its answer headers. The wait is bounded twice: for the
 * connection to open, and from the last byte of the request body to the first of the answer. A body
 * that fails (the page broke off) destroys the request, so the hub's connection is never reused half-sent.
 */
function send(
  method: string,
  target: URL,
  headers: [string, string][],
  body: ReadableStream<Uint8Array> | null,
  { answerTimeoutMs, signal, lookup }: Timing,
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
      ...(lookup ? { lookup } : {}),
    });
    // One timer at a time, named by what it waits for: the connection, then the answer.
    let timer: NodeJS.Timeout | undefined;
    let waitingFor = '';
    const wait = (what: string) => {
      clearTimeout(timer);
      waitingFor = what;
      timer = setTimeout(() => request.destroy(new Error(`${what} within ${answerTimeoutMs} ms`)), answerTimeoutMs);
    };
    const stop = (what = waitingFor) => {
      if (what === waitingFor) clearTimeout(timer);
    };
    wait('no connection');
    request.once('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => stop('no connection'));
      else stop('no connection');
    });
    // 'finish': the last byte of the request (body included) is handed to the connection; it can
    // come before the connection opens, and then the wait for the answer covers that too.
    let answered = false;
    request.once('finish', () => answered || wait('no answer'));
    request.once('response', (answer) => {
      answered = true;
      stop();
      resolve(answer);
    });
    // `on`, not `once`: the connection can still fail after the answer began (the body then ends with it).
    request.on('error', (e) => {
      stop();
      reject(e);
    });
    if (!body) request.end();
    else
      pipeline(Readable.fromWeb(body as NodeReadableStream), request).catch((e: unknown) => {
        // pipeline has destroyed the request; the page's own abort is answered by its signal.
        request.destroy(e as Error);
      });
  });
}

function toResponse(answer: IncomingMessage, method: string, hubBase: string, brokeOff?: (e: Error) => void): Response {
  const headers = answerHeaders(answer.headers, hubBase);
  const status = answer.statusCode ?? 502;
  if (status < 200) return proxyError(502, `the hub answered ${status}, which this console does not pass on`);
  const init = { status, statusText: answer.statusMessage ?? '', headers };
  if (method === 'HEAD' || NO_BODY.has(status)) {
    answer.resume();
    return new Response(null, init);
  }
  const source = (Readable.toWeb(answer) as ReadableStream<Uint8Array>).getReader();
  // `ended`: the page went (cancelled) or the hub broke off; nothing more is read or reported.
  let ended = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (ended) return;
        try {
          const { done, value } = await source.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (e) {
          if (ended) return;
          // With the page's connection at hand, closing it ends this stream (its reader is cancelled).
          ended = true;
          if (brokeOff) brokeOff(e as Error);
          else controller.error(e);
        }
      },
      cancel: (why) => {
        ended = true;
        return source.cancel(why).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, init);
}
