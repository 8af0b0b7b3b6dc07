// Headers for the built app. COOP/COEP make the page cross-origin isolated (WASM threads);
// the CSP allows no inline script; 'wasm-unsafe-eval' is what onnxruntime-web needs to compile WASM.
import type { MiddlewareHandler } from 'hono';

/** `connect`: where the page may fetch from (the hub may be on another origin, unless proxied). */
function securityHeadersFor(connect: string): Record<string, string> {
  return {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self' 'wasm-unsafe-eval'",
      "worker-src 'self' blob:",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https: http:",
      `connect-src ${connect}`,
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

/** The page signs in to any hub, so it may connect to any http(s) origin. */
export const securityHeaders = securityHeadersFor("'self' http: https: blob: data:");

/** `npm start -- --hub-url`: the server passes the hub through, so the page connects to its own origin only. */
export const proxiedSecurityHeaders = securityHeadersFor("'self' blob: data:");

/**
 * Every answer of the console's server gets `headers`, unless a route of the console's own chose one
 * (the mock hub's cross-origin CORP; the sandbox CSP the proxy gives hub files). The proxy passes none
 * of a hub's (hub-proxy-headers.ts), so a hub never sets these on the console's origin.
 */
export function withSecurityHeaders(headers: Record<string, string>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    for (const [k, v] of Object.entries(headers)) if (!c.res.headers.has(k)) c.res.headers.set(k, v);
  };
}
