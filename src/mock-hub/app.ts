import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createAuditLog } from './audit/audit-log.ts';
import { createRepoFiles, mountRepoFiles, type RepoFile } from './files/repo-files.ts';
import { createHubEvents, type HubEvents } from './hub-events.ts';
import type { HubContext } from './hub-context.ts';
import { hubHeaders, hubHeadersWithoutCors } from './http/hub-headers.ts';
import { rateLimit, type RateLimitOptions } from './http/rate-limit.ts';
import { registerRoutes } from './http/register-routes.ts';
import { errorResponse } from './http/respond.ts';
import { servedInSpecOnlyMode, type AnyRoute } from './http/route.ts';
import { buildOpenApi } from './openapi/build-openapi.ts';
import { apiRoutes } from './routes/index.ts';
import { metaRoutes } from './routes/meta.ts';
import { initialState } from './seed/initial-state.ts';
import { emptyState } from './store/empty-state.ts';
import { createStore, type Store } from './store/store.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface MockHubOptions {
  /** Persist state here (survives restarts); in memory when absent. */
  dataDir?: string;
  baseUrl?: string;
  now?: () => Date;
  /** Start from the seed (default) or from an empty state. Ignored when dataDir has state. */
  seed?: boolean;
  /** Refuse callers over this rate with 429 + Retry-After (off by default; `MOCK_HUB_RATE_LIMIT` in the CLI). */
  rateLimit?: RateLimitOptions;
  /**
   * Serve only what the real hub has: the spec's endpoints and the extensions a public client calls.
   * Mock-only routes answer 404 like an unknown route and are left out of /openapi.json.
   */
  specOnly?: boolean;
  /** false: no CORS headers and no preflight answers, as a hub that does not allow the console's origin (`--no-cors`). */
  cors?: boolean;
}

export interface MockHub {
  app: Hono;
  store: Store;
  events: HubEvents;
  /** Everything route handlers get; the delivery module builds on it. */
  context: HubContext;
  /** The route table (registered and documented). */
  routes: readonly AnyRoute[];
  registerRepoFiles(repoId: string, files: RepoFile[], revision?: string): void;
  /** serves a local folder as a repository's files (`npm start -- --repo owner/name=folder`) */
  registerRepoFolder(repoId: string, dir: string, revision?: string): void;
  /** Runs `fn` on close (timers, sockets of modules built on the hub). */
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

export async function createMockHub(opts: MockHubOptions = {}): Promise<MockHub> {
  const now = opts.now ?? (() => new Date());
  const store = createStore({ dataDir: opts.dataDir, now, seed: opts.seed === false ? emptyState : initialState });
  const files = createRepoFiles(now);
  const events = createHubEvents();
  const context: HubContext = {
    store,
    baseUrl: opts.baseUrl ?? 'http://127.0.0.1',
    audit: createAuditLog(),
    events,
    files,
  };

  let doc: object | undefined;
  const table: AnyRoute[] = [...metaRoutes(() => (doc ??= buildOpenApi(routes))), ...apiRoutes];
  const routes = opts.specOnly ? table.filter(servedInSpecOnlyMode) : table;

  const app = new Hono();
  for (const path of [
    '/api/*',
    '/openapi.json',
    '/:ns/:repo/resolve/*',
    '/datasets/:ns/:repo/resolve/*',
    '/spaces/:ns/:repo/resolve/*',
  ])
    app.use(path, opts.cors === false ? hubHeadersWithoutCors : hubHeaders);
  if (opts.rateLimit) app.use('/api/*', rateLimit(opts.rateLimit));
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => errorResponse(c, 413, `body: larger than ${MAX_BODY_BYTES} bytes (1 MB)`),
  });
  // GET and HEAD carry no body; skipping the limiter keeps them from materializing the raw Request.
  app.use('/api/*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
  registerRoutes(app, routes, context);
  mountRepoFiles(app, files);
  app.all('/api/*', (c) =>
    errorResponse(c, 404, `no route ${c.req.method} ${c.req.path} on the mock hub (see /openapi.json)`),
  );

  const closers: (() => void | Promise<void>)[] = [];
  return {
    app,
    store,
    events,
    context,
    routes,
    registerRepoFiles: (repoId, list, revision) => files.register(repoId, list, revision),
    registerRepoFolder: (repoId, dir, revision) => files.registerFolder(repoId, dir, revision),
    onClose: (fn) => void closers.push(fn),
    close: async () => {
      for (const fn of closers.splice(0).reverse()) await fn();
    },
  };
}
