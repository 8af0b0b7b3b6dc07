import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_PAYLOAD_BYTES, readPayload } from './arrival.ts';
import { addDeliveriesApi } from './deliveries-api.ts';
import { RECENT_PER_ROUTE, renderDelivery, renderRecent, renderSignIn } from './deliveries-page.ts';
import type { WebhookHandler } from './delivery-context.ts';
import { DeliveryRunner, type RouteOptions } from './delivery-runner.ts';
import { PAGE_HEADERS, renderLandingPage } from './landing-page.ts';
import { listen, type Listening } from './listen.ts';
import { consoleLogger, type WebhooksLogger } from './logger.ts';
import { isSignedIn } from './page-auth.ts';
import type { RetryPolicy } from './retry-backoff.ts';
import type { StoredHandler } from './run-handler.ts';
import { runInRequest } from './run-in-request.ts';
import { checkSecret, resolveSecret, SECRET_HEADER } from './secret.ts';
import { RecentIds, signingKey, verifySignature } from './standard-webhooks.ts';
import { deliveryIdOf } from './store/delivery-id.ts';
import type { Delivery } from './store/delivery-record.ts';
import { DeliveryStore, type DeliveryStoreOptions } from './store/delivery-store.ts';
import { storedHeaders } from './store/stored-headers.ts';

export interface WebhooksServerOptions {
  /** Overrides `WEBHOOK_SECRET`. */
  secret?: string;
  logger?: WebhooksLogger;
  /**
   * A folder for the delivery store (overrides `WEBHOOKS_STORE`): each delivery is written there and
   * synced to disk before the hub gets its 2xx, then handled in the background, retried, and resumed
   * after a restart. Without one, handlers run inside the hub's request.
   */
  store?: string;
  /** Bounds and journal settings of the store. */
  storeOptions?: Omit<DeliveryStoreOptions, 'now'>;
  /** Handlers running at once over all routes, with a store (default 16). */
  concurrency?: number;
  /** Retries with a store (default 5 attempts, 1 s doubling, jittered, capped at 5 minutes). */
  retry?: Partial<RetryPolicy>;
  /**
   * Verify Standard Webhooks signatures instead of X-Webhook-Secret, for deliveries that come through
   * a relay which signs: the secret as the sender shows it (`whsec_<base64>`, or the base64 alone).
   * Off when absent; a value that is not a key (empty, not base64) stops the server from starting.
   */
  standardWebhooksSecret?: string;
}

export interface WebhooksServer {
  /** Registers `POST /webhooks/<name>`; the name is `name` or else `handler.name`. Returns the route path. */
  add(handler: WebhookHandler, name?: string, options?: RouteOptions): string;
  routes(): string[];
  app: Hono;
  listen(port: number, host?: string): Promise<Listening>;
  /** The delivery store, when the server has one. */
  store: DeliveryStore | undefined;
  /** Resolves once no stored delivery is queued, running or waiting for its retry. */
  idle(): Promise<void>;
  /**
   * Stops accepting, lets running handlers finish for up to `deadlineMs` (default 30 s), then aborts
   * them (they run again on the next start) and closes the store.
   */
  shutdown(deadlineMs?: number): Promise<void>;
}

const ROUTE_NAME = /^[A-Za-z0-9._~-]+$/;

/** The headers as received, where @hono/node-server serves the request (reading them builds no `Headers`). */
function rawHeaders(c: Context): readonly string[] | undefined {
  return (c.env as { incoming?: Pick<IncomingMessage, 'rawHeaders'> } | undefined)?.incoming?.rawHeaders;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function openStore(folder: string, options: WebhooksServerOptions, logger: WebhooksLogger) {
  const store = DeliveryStore.open(folder, { ...options.storeOptions, logger });
  const runner = new DeliveryRunner({ store, logger, concurrency: options.concurrency, retry: options.retry });
  const { requeued, interrupted } = runner.resume();
  logger.info(
    `Delivery store at ${folder}: ${store.size} deliveries, ${requeued} to run` +
      (interrupted ? ` (${interrupted} interrupted by the last stop, run again)` : '') +
      '. Each delivery is on disk before it is acknowledged.',
  );
  return { store, runner };
}

export function createWebhooksServer(options: WebhooksServerOptions = {}): WebhooksServer {
  const logger = options.logger ?? consoleLogger;
  const secret = resolveSecret(options.secret);
  const handlers = new Map<string, WebhookHandler>();
  const signature =
    options.standardWebhooksSecret === undefined ? undefined : signingKey(options.standardWebhooksSecret);
  const recentIds = new RecentIds();
  const listening: Listening[] = [];

  if (secret === undefined) {
    logger.warn(
      'Webhook secret is not defined: the webhook endpoints accept requests from anyone. ' +
        'Set WEBHOOK_SECRET or pass { secret } to createWebhooksServer, and set the same secret on the hub.',
    );
  } else {
    logger.info('Webhook secret is defined: requests must carry it in X-Webhook-Secret.');
  }
  const folder = options.store ?? (process.env.WEBHOOKS_STORE || undefined);
  const { store, runner } = folder === undefined ? {} : openStore(folder, options, logger);

  const routes = () => [...handlers.keys()].map((n) => `/webhooks/${n}`);

  const page = (c: Context, signInFailed = false) => {
    for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
    const input = { origin: new URL(c.req.url).origin, routes: routes(), secured: secret !== undefined };
    if (!store) return c.html(renderLandingPage(input));
    if (!isSignedIn(secret, c)) return c.html(renderLandingPage({ ...input, more: renderSignIn(signInFailed) }));
    const shown = c.req.query('delivery');
    const one = shown === undefined ? undefined : store.get(shown);
    if (one) return c.html(renderLandingPage({ ...input, more: renderDelivery(one) }));
    const byRoute = new Map<string, Delivery[]>([...handlers.keys()].map((n) => [n, []]));
    for (const d of store.list()) {
      const list = byRoute.get(d.route) ?? byRoute.set(d.route, []).get(d.route)!;
      if (list.length < RECENT_PER_ROUTE) list.push(d);
    }
    return c.html(renderLandingPage({ ...input, more: renderRecent(byRoute) }));
  };

  // One dynamic route dispatching through the map, so handlers can be added after the first request.
  const app = new Hono();
  app.get('/', (c) => page(c));
  addDeliveriesApi({ app, secret, store, runner, page });
  const tooLarge = (c: Context) => c.json({ error: `Request body is larger than ${MAX_PAYLOAD_BYTES} bytes.` }, 413);
  const limitStream = bodyLimit({ maxSize: MAX_PAYLOAD_BYTES, onError: tooLarge });
  // The hub sends Content-Length: checking it leaves the body to be read straight off the socket.
  // Hono's bodyLimit touches `request.body`, which turns @hono/node-server's light request into a
  // full Fetch Request (streams, abort signal) on every delivery; it only runs for bodies of unknown length.
  app.use('/webhooks/*', (c, next) => {
    const length = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding');
    if (length === undefined || chunked) return limitStream(c, next);
    return Number(length) > MAX_PAYLOAD_BYTES ? Promise.resolve(tooLarge(c)) : next();
  });
  app.post('/webhooks/:name', async (c: Context) => {
    const name = c.req.param('name') ?? '';
    const handler = handlers.get(name);
    if (!handler) return c.json({ error: `No webhook handler at ${c.req.path}.` }, 404);

    if (!signature) {
      const check = checkSecret(secret, c.req.header(SECRET_HEADER));
      if (!check.ok) return c.json({ error: check.error }, check.status);
    }

    const text = await c.req.text();
    let webhookId: string | undefined;
    if (signature) {
      const check = verifySignature(signature, c.req.raw.headers, text);
      if (!check.ok) return c.json({ error: check.error }, check.status);
      webhookId = check.webhookId;
    }
    const read = readPayload(text);
    if (!read.ok) return c.json(read.body, read.status);
    const deliveryId = deliveryIdOf(name, text, webhookId);

    if (runner) {
      const headers = storedHeaders(rawHeaders(c) ?? c.req.raw.headers);
      try {
        const accepted = await runner.accept({ id: deliveryId, route: name, headers, body: text });
        return c.json(accepted, accepted.duplicate ? 200 : 202);
      } catch (err) {
        logger.error(`Could not store a delivery to ${c.req.path}: ${errorMessage(err)}`);
        return c.json({ error: `The delivery could not be stored: ${errorMessage(err)}` }, 503);
      }
    }
    return runInRequest(c, handler, read.payload, deliveryId, webhookId, recentIds, logger);
  });
  app.notFound((c) => c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => c.json({ error: errorMessage(err) }, 500));

  return {
    add(handler, name, routeOptions) {
      const routeName = (name ?? handler.name).replace(/^\/+|\/+$/g, '');
      if (!routeName) throw new Error('A webhook handler needs a name: pass one or use a named function.');
      if (!ROUTE_NAME.test(routeName))
        throw new Error(`Invalid webhook route name "${routeName}": use letters, digits, ".", "_", "~" or "-".`);
      if (handlers.has(routeName)) throw new Error(`Webhook /webhooks/${routeName} already exists.`);
      handlers.set(routeName, handler);
      runner?.register(routeName, handler as StoredHandler, routeOptions);
      return `/webhooks/${routeName}`;
    },
    routes,
    app,
    async listen(port, host) {
      const l = await listen(app.fetch, port, host);
      listening.push(l);
      return l;
    },
    store,
    idle: () => runner?.idle() ?? Promise.resolve(),
    async shutdown(deadlineMs = 30_000) {
      await Promise.all(listening.splice(0).map((l) => l.close()));
      if (!runner || !store) return;
      const { aborted } = await runner.shutdown(deadlineMs);
      if (aborted) logger.warn(`Shutdown: aborted ${aborted} running handler(s); they run again on the next start.`);
      await store.close();
    },
  };
}
