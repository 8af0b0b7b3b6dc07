// The delivery page and API show payloads, which can be private: with a secret configured they
// require it, in X-Webhook-Secret or as a session cookie set by the page's sign-in form. The cookie
// holds an HMAC of the secret, never the secret itself.
import { createHmac } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secretMatches, SECRET_HEADER } from './secret.ts';

const COOKIE = 'webhooks_session';

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

/** Sets the session cookie when `given` is the secret; false otherwise. */
export function signIn(secret: string, given: string, c: Context): boolean {
  if (!secretMatches(secret, given)) return false;
  setCookie(c, COOKIE, sessionToken(secret), { httpOnly: true, sameSite: 'Strict', path: '/' });
  return true;
}
