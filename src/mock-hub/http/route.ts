import type { z } from 'zod';
import type { AuthInfo } from '../auth/authenticate.ts';
import type { OrgAccess, OrgGate } from '../auth/org-access.ts';
import type { HubContext } from '../hub-context.ts';

export type Method = 'get' | 'post' | 'patch' | 'delete';
export type RouteExtension = { realHub: string } | 'mock-only' | 'tooling';
type Obj = z.ZodObject;

/**
 * `none`: no token read. `optional`: a token is used when sent (and must be valid).
 * `user`: any valid token. `org`: member of `{name}`, then `gate`.
 */
export type AuthKind = 'none' | 'optional' | 'user' | 'org';

interface BaseContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  hub: HubContext;
  setHeader(name: string, value: string): void;
  /** The request URL (the raw Request is not handed out: materializing it costs on every call). */
  url: string;
}

/** What the auth kind guarantees: the caller on `user` and `org` routes, their org access on `org` routes. */
interface AuthContext {
  none: object;
  optional: { /** The caller, if a token was sent. */ auth: AuthInfo | undefined };
  user: { auth: AuthInfo };
  org: { auth: AuthInfo; /** The org of `{name}`, with the caller's role in it. */ org: OrgAccess };
}

export type RouteContext<A extends AuthKind, P, Q, B> = BaseContext<P, Q, B> & AuthContext[A];

/**
 * One row of the route table: it registers the handler and generates the OpenAPI operation, so
 * the two cannot drift. Path templates use OpenAPI `{param}` syntax.
 */
export interface RouteDef<A extends AuthKind, P extends Obj, Q extends Obj, B extends z.ZodType, R extends z.ZodType> {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /**
   * Set on every route outside the spec (`x-mock-extension: true` in the OpenAPI document):
   * - `{ realHub }`: the real hub serves it; `realHub` cites a public client that calls it (file and
   *   function in huggingface_hub's hf_api.py or huggingface.js packages/hub).
   * - `'mock-only'`: no public client calls it. `--spec-only` answers 404 for it, exactly as for an
   *   unknown route, and leaves it out of /openapi.json; the console copes without it.
   * - `'tooling'`: the mock's own tooling (health, OpenAPI, events), served in every mode.
   */
  extension?: RouteExtension;
  /** Also documents 401 (unless `none`) and, on `org` routes, 403 and 404. */
  auth: A;
  /** On `org` routes: the plans and role the route needs. */
  gate?: OrgGate;
  /** Defaults to every method but GET. Write routes need a write (or fine-grained) token. */
  write?: boolean;
  params?: P;
  query?: Q;
  /** Wrap in `.optional()` when the body may be absent. */
  body?: B;
  response: R;
  /**
   * Set when the body is too big to validate on every request: the handler returns a Response
   * and `validatedBy` says where its content is validated instead.
   */
  raw?: { contentType: string; validatedBy: string };
  /** Headers of the 200 answer worth documenting (name -> description); X-Request-Id is always there. */
  responseHeaders?: Record<string, string>;
  /**
   * GET only: memoize the validated, serialized answer per caller and URL until the next committed
   * write (store version). For hot reads whose answer depends on nothing but state and request.
   */
  memo?: boolean;
  /** Documented error statuses besides those that follow from input and auth. */
  errors?: readonly number[];
  /** Synchronous on purpose: a write runs start to finish inside one store transaction. */
  handler(ctx: RouteContext<A, z.output<P>, z.output<Q>, z.output<B>>): z.input<R> | Response;
}

/** A row as the pipeline sees it: it hands every handler the context its auth kind promises. */
export type AnyRoute = Omit<RouteDef<AuthKind, Obj, Obj, z.ZodType, z.ZodType>, 'handler'> & {
  handler(
    ctx: BaseContext<Record<string, string>, unknown, unknown> & {
      auth: AuthInfo | undefined;
      org: OrgAccess | undefined;
    },
  ): unknown;
};

/** What a hub with only the spec's endpoints (plus the real hub's extensions) serves. */
export function servedInSpecOnlyMode(route: Pick<AnyRoute, 'extension'>): boolean {
  return route.extension !== 'mock-only';
}

export function defineRoute<A extends AuthKind, P extends Obj, Q extends Obj, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<A, P, Q, B, R>,
): AnyRoute {
  return def as unknown as AnyRoute;
}
