import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { authenticate, type AuthInfo } from '../auth/authenticate.ts';
import { checkOrgAccess } from '../auth/org-access.ts';
import type { HubContext } from '../hub-context.ts';
import { HttpError, badRequest } from './http-error.ts';
import { errorResponse } from './respond.ts';
import type { AnyRoute } from './route.ts';
import { zodMessage, type Where } from './zod-message.ts';

export function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

export function isWrite(route: AnyRoute): boolean {
  return route.write ?? route.method !== 'get';
}

/** Routes without path or query parameters accept none. */
const NONE = z.strictObject({});

function parse<S extends z.ZodType>(schema: S, value: unknown, where: Where): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(zodMessage(where, r.error));
  return r.data;
}

/** One string per parameter, or an array when it is repeated (`?stage=A&stage=B`, as requests sends lists). */
function queryValues(c: Context): Record<string, string | string[]> {
  // Hono's map has no prototype and own keys only, so `__proto__` stays a parameter.
  const all = c.req.queries();
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.length === 1 ? v[0]! : v]));
}

async function readBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('body: is not valid JSON');
  }
}

/**
 * Mounts every route with the same pipeline: authenticate, refuse read tokens on writes, validate
 * path/query/body with the route's schemas, check org access, run the handler in a store
 * transaction (a throw rolls back), validate the response with its schema, then answer.
 */
export function registerRoutes(app: Hono, routes: readonly AnyRoute[], hub: HubContext): void {
  for (const route of routes) {
    const memo = route.memo ? createMemo() : undefined;
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      try {
        return await handle(c, route, hub, memo);
      } catch (err) {
        if (err instanceof HttpError) return errorResponse(c, err.status, err.message, err.headers);
        console.error(`mock hub: ${route.method.toUpperCase()} ${route.path} failed`, err);
        return errorResponse(c, 500, `internal error in the mock hub: ${(err as Error).message}`);
      }
    });
  }
}

interface Memo {
  version: number;
  answers: Map<string, { body: string; headers: [string, string][] }>;
}

const MEMO_SIZE = 256;

function createMemo(): Memo {
  return { version: -1, answers: new Map() };
}

/** `authenticate` has run on every route but `none` and tokenless `optional` ones. */
function authenticated(auth: AuthInfo | undefined): AuthInfo {
  if (!auth) throw new Error('an org route ran without authentication (a bug in the mock hub)');
  return auth;
}

function orgName(params: Record<string, string>): string {
  if (params.name === undefined) throw new Error('an org route without {name} in its path (a bug in the mock hub)');
  return params.name;
}

async function handle(c: Context, route: AnyRoute, hub: HubContext, memo: Memo | undefined): Promise<Response> {
  const write = isWrite(route);
  const header = c.req.header('authorization');
  const auth = route.auth === 'none' || (route.auth === 'optional' && !header) ? undefined : authenticate(header);
  if (auth && write && auth.token.role === 'read')
    throw new HttpError(403, 'this operation needs a write token; the token in use is read-only');
  // A hit means this caller sent this exact URL at this state version and it passed every check.
  const memoKey = memo && `${auth?.token.id ?? ''} ${c.req.url}`;
  if (memo && memoKey) {
    if (memo.version !== hub.store.version) {
      memo.version = hub.store.version;
      memo.answers.clear();
    }
    const hit = memo.answers.get(memoKey);
    if (hit) {
      for (const [k, v] of hit.headers) c.header(k, v);
      c.header('Content-Type', 'application/json');
      return c.body(hit.body);
    }
  }

  const params = parse(route.params ?? NONE, c.req.param(), 'path') as Record<string, string>;
  const query = parse(route.query ?? NONE, queryValues(c), 'query');
  const rawBody = route.body ? await readBody(c) : undefined;
  const body = route.body ? parse(route.body, rawBody, 'body') : undefined;
  const org =
    route.auth === 'org'
      ? checkOrgAccess(hub.store.state, authenticated(auth), orgName(params), write, route.gate)
      : undefined;

  const run = (): Response => {
    const headers: [string, string][] = [];
    const result = route.handler({
      params,
      query,
      body,
      auth,
      org,
      hub,
      setHeader: (name, value) => {
        headers.push([name, value]);
        c.header(name, value);
      },
      url: c.req.url,
    });
    if (result instanceof Response) return result;
    const checked = route.response.safeParse(result);
    if (!checked.success)
      throw new Error(
        `response does not match its schema (a bug in the mock hub): ${zodMessage('response', checked.error)}`,
      );
    const text = JSON.stringify(checked.data);
    if (memo && memoKey && memo.answers.size < MEMO_SIZE) memo.answers.set(memoKey, { body: text, headers });
    c.header('Content-Type', 'application/json');
    return c.body(text);
  };
  if (!write) return run();
  // Handlers check everything before they mutate; the transaction also undoes a half-done change.
  const response = hub.store.transaction(run);
  hub.events.emitMutation({
    method: route.method.toUpperCase(),
    route: route.path,
    user: auth?.user.name ?? '',
    params,
  });
  return response;
}
