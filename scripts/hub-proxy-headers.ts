// Which headers the console's proxy passes between the page and the hub, both ways. The request keeps
// what the user sent, less what belongs to one connection; the answer keeps what the hub said about
// its data, never what would govern the console's origin in the browser. See docs/hub-proxy.md.
import type { IncomingHttpHeaders } from 'node:http';

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

/**
 * What the browser applies to the whole origin that served the answer, or to the page it becomes:
 * the console's server sets its own (security-headers.ts), and a hub's never reaches the page.
 */
export const ORIGIN_POLICY = new Set([
  'content-security-policy',
  'content-security-policy-report-only',
  'cross-origin-embedder-policy',
  'cross-origin-embedder-policy-report-only',
  'cross-origin-opener-policy',
  'cross-origin-opener-policy-report-only',
  'cross-origin-resource-policy',
  'x-content-type-options',
  'x-frame-options',
  'x-xss-protection',
  'referrer-policy',
  'permissions-policy',
  'feature-policy',
  'document-policy',
  'origin-agent-cluster',
  'strict-transport-security',
  'clear-site-data',
  'service-worker-allowed',
  'alt-svc',
  'refresh',
  'report-to',
  'reporting-endpoints',
  'nel',
  'accept-ch',
  'critical-ch',
  'x-dns-prefetch-control',
  'x-permitted-cross-domain-policies',
  'speculation-rules',
]);

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

/**
 * The request headers for the hub. A request that goes on without a body (GET, HEAD) loses its
 * `Content-Length` too: announcing bytes that never come makes the hub read them from the next
 * request on the same connection. `Expect` was answered by the console's server already.
 */
export function requestHeaders(from: Iterable<[string, string]>, withBody: boolean): [string, string][] {
  return endToEndHeaders(from).filter(([k]) => k !== 'expect' && (withBody || k !== 'content-length'));
}

/**
 * Types the page reads as data and a browser never runs on navigation: JSON (and `+json`), bytes
 * (safetensors come as octet-stream), event streams and raster images. SVG is not among them (it runs script).
 */
const DATA_TYPE =
  /^(?:application\/(?:json|[\w.-]+\+json|x-ndjson|octet-stream)|text\/event-stream|image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon))$/;

export function isDataType(contentType: string | undefined): boolean {
  return DATA_TYPE.test((contentType ?? '').split(';')[0]!.trim().toLowerCase());
}

/** What a hub answer that is not data gets: downloaded, never shown, and without script or origin if shown anyway. */
export const HUB_FILE_POLICY = "sandbox; default-src 'none'";

/**
 * The answer headers for the page: end to end ones, less the hub's origin policy; Location and Link
 * on the hub become paths on the console; anything not data is an attachment in a sandbox.
 */
export function answerHeaders(from: IncomingHttpHeaders, hubBase: string): Headers {
  const headers = new Headers();
  for (const [k, v] of endToEndHeaders(Object.entries(from))) if (!ORIGIN_POLICY.has(k)) headers.append(k, v);
  // Addresses on the hub become paths on the console: a redirect that is not followed (a write), and
  // the next page of a list (`Link: <https://hub/api/...>; rel="next"`, which the client follows on its own origin only).
  const location = headers.get('location');
  if (location?.startsWith(hubBase)) headers.set('location', location.slice(hubBase.length - 1));
  const link = headers.get('link');
  if (link) headers.set('link', link.split(`<${hubBase}`).join('</'));
  headers.set('x-content-type-options', 'nosniff');
  if (!isDataType(headers.get('content-type') ?? undefined)) {
    // The hub's file name stays; `inline` (or any other disposition) becomes `attachment`.
    const disposition = headers.get('content-disposition') ?? '';
    headers.set('content-disposition', disposition.replace(/^[^;]*/, 'attachment'));
    headers.set('content-security-policy', HUB_FILE_POLICY);
  }
  return headers;
}
