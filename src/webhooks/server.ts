import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { renderLandingPage } from './landing-page.ts';
import { listen, type Listening } from './listen.ts';
import { consoleLogger, type WebhooksLogger } from './logger.ts';
import { receivedWebhookPayloadSchema, type ReceivedWebhookPayload } from './payload-schema.ts';
import { checkSecret, resolveSecret, SECRET_HEADER } from './secret.ts';

/** Gets the validated payload and the raw request; what it returns is the JSON response (a `Response` is sent as is). */
export type WebhookHandler = (payload: ReceivedWebhookPayload, request: Request) => unknown;

export interface WebhooksServerOptions {
  /** Overrides `WEBHOOK_SECRET`. */
  secret?: string;
  logger?: WebhooksLogger;
}

export interface WebhooksServer {
  /** Registers `POST /webhooks/<name>`; the name is `name` or else `handler.name`. Returns the route path. */
  add(handler: WebhookHandler, name?: string): string;
  routes(): string[];
  app: Hono;
  listen(port: number, host?: string): Promise<Listening>;
}

const ROUTE_NAME = /^[A-Za-z0-9._~-]+$/;

/** Hub payloads are a few KB; anything far larger is not one. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createWebhooksServer(options: WebhooksServerOptions = {}): WebhooksServer {
  const logger = options.logger ?? consoleLogger;
  const secret = resolveSecret(options.secret);
  const handlers = new Map<string, WebhookHandler>();

  if (secret === undefined) {
    logger.warn(
      'Webhook secret is not defined: the webhook endpoints accept requests from anyone. ' +
        'Set WEBHOOK_SECRET or pass { secret } to createWebhooksServer, and set the same secret on the hub.',
    );
  } else {
    logger.info('Webhook secret is defined: requests must carry it in X-Webhook-Secret.');
  }

  const routes = () => [...handlers.keys()].map((n) => `/webhooks/${n}`);

  // One dynamic route dispatching through the map, so handlers can be added after the first request.
  const app = new Hono();
  app.get('/', (c) =>
    c.html(renderLandingPage({ origin: new URL(c.req.url).origin, routes: routes(), secured: secret !== undefined })),
  );
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
    const handler = handlers.get(c.req.param('name') ?? '');
    if (!handler) return c.json({ error: `No webhook handler at ${c.req.path}.` }, 404);

    const check = checkSecret(secret, c.req.header(SECRET_HEADER));
    if (!check.ok) return c.json({ error: check.error }, check.status);

    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return c.json({ error: 'Request body is not valid JSON.' }, 400);
    }
    const parsed = receivedWebhookPayloadSchema.safeParse(body);
    if (!parsed.success) {
      return c.json(
        {
          error: 'Request body is not a webhook payload: it needs an "event" object and a "repo" object.',
          issues: parsed.error.issues,
        },
        422,
      );
    }

    try {
      const result = await handler(parsed.data, c.req.raw);
      if (result instanceof Response) return result;
      return c.json((result ?? null) as object);
    } catch (err) {
      logger.error(`Webhook handler ${c.req.path} failed: ${errorMessage(err)}`);
      return c.json({ error: errorMessage(err) }, 500);
    }
  });
  app.notFound((c) => c.json({ error: `Not found: ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => c.json({ error: errorMessage(err) }, 500));

  return {
    add(handler, name) {
      const routeName = (name ?? handler.name).replace(/^\/+|\/+$/g, '');
      if (!routeName) throw new Error('A webhook handler needs a name: pass one or use a named function.');
      if (!ROUTE_NAME.test(routeName))
        throw new Error(`Invalid webhook route name "${routeName}": use letters, digits, ".", "_", "~" or "-".`);
      if (handlers.has(routeName)) throw new Error(`Webhook /webhooks/${routeName} already exists.`);
      handlers.set(routeName, handler);
      return `/webhooks/${routeName}`;
    },
    routes,
    app,
    listen: (port, host) => listen(app.fetch, port, host),
  };
}
