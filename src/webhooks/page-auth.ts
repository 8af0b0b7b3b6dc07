// The delivery page and API show payloads, which can be private: with a secret configured they
// require it, in X-Webhook-Secret or as a session cookie set by the page's sign-in form. The cookie
// holds an HMAC of the secret, never the secret itself; it expires after a working day, and is
// `Secure` when the page is served over HTTPS (TLS here, or a proxy's `X-Forwarded-Proto: https`).
import { createHmac } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secretMatches, SECRET_HEADER } from './secret.ts';

const COOKIE = 'webhooks_session';
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

function sessionToken(secret: string): string {
  return createHmac('sha256', secret).update('webhooks-page-session').digest('hex');
}

export function isSignedIn(secret: string | undefined, c: Context): boolean {
  if (secret === undefined) return true;
  const header = c.req.header(SECRET_HEADER);
  if (header !== undefined) return secretMatches(secret, header);
  const cookie = getCookie(c, COOKIE);
  return cookie !== undefined && secretMatches(sessionToken(secret), cookie);
}

/** The request reached this server over TLS, or a proxy in front of it says the client used HTTPS. */
export function servedOverHttps(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  const forwarded = c.req.header('x-forwarded-proto');
  return forwarded?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** Sets the session cookie when `given` is the secret; false otherwise. */
export function signIn(secret: string, given: string, c: Context): boolean {
  if (!secretMatches(secret, given)) return false;
  setCookie(c, COOKIE, sessionToken(secret), {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    maxAge: SESSION_MAX_AGE_SECONDS,
    secure: servedOverHttps(c),
  });
  return true;
}
