import { HttpError } from '../http/http-error.ts';
import { findToken, findUser, type DemoToken, type SeedUser } from '../seed/users.ts';

export interface AuthInfo {
  user: SeedUser;
  token: DemoToken;
}

const unauthorized = (message: string) =>
  new HttpError(401, message, { 'WWW-Authenticate': 'Bearer realm="mock-hub"' });

/** Resolves `Authorization: Bearer <token>`; messages never echo the token. */
export function authenticate(header: string | undefined): AuthInfo {
  if (!header) throw unauthorized('Authorization header is required: send "Authorization: Bearer <access token>"');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('Authorization header must be "Bearer <access token>"');
  const token = findToken(m[1]!);
  const user = token && findUser(token.user);
  if (!token || !user) throw unauthorized('Invalid credentials in Authorization header');
  return { user, token };
}
