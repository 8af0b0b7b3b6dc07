// The delivery views of a receiver with a store: GET /deliveries (JSON, filters route, state, since),
// GET /deliveries/:id, POST /deliveries/:id/replay, and the sign-in form's POST /sign-in. All of
// them require the webhook secret when one is set. The sign-in form's body is bounded and refused
// (413) before it is read past the bound, and failed sign-ins are slowed down per client.
import type { IncomingMessage } from 'node:http';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { DeliveryRunner } from './delivery-runner.ts';
import { shownPayload } from './deliveries-page.ts';
import { isSignedIn, signIn } from './page-auth.ts';
import { SignInThrottle } from './sign-in-throttle.ts';
import { deliveryStates, type DeliveryState } from './store/delivery-record.ts';
import type { DeliveryFilter, DeliveryStore } from './store/delivery-store.ts';
import { detail, summarize } from './store/delivery-summary.ts';

export interface DeliveriesApi {
  app: Hono;
  secret: string | undefined;
  store: DeliveryStore | undefined;
  runner: DeliveryRunner | undefined;
  /** The landing page with whatever the request may see. */
  page(c: Context, signInFailed?: boolean): Response | Promise<Response>;
  /** Failed sign-ins per client (a default one when not given). */
  throttle?: SignInThrottle;
}

/** The sign-in form holds one secret: anything much longer is not a sign-in. */
export const MAX_SIGN_IN_BYTES = 8 * 1024;

const NO_STORE = 'This server keeps no deliveries: start it with { store } or WEBHOOKS_STORE=<folder>.';
const MAX_LIMIT = 10_000;

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The query of GET /deliveries; an error names the field. */
export function parseDeliveryFilter(query: Record<string, string | undefined>): Parsed<DeliveryFilter> {
  const filter: DeliveryFilter = { limit: 100 };
  if (query.route) filter.route = query.route.replace(/^\/?(webhooks\/)?/, '');
  if (query.state) {
    if (!(deliveryStates as readonly string[]).includes(query.state))
      return { ok: false, error: `state must be one of ${deliveryStates.join(', ')}, got "${query.state}".` };
    filter.state = query.state as DeliveryState;
  }
  if (query.since) {
    const since = /^\d+$/.test(query.since) ? Number(query.since) : Date.parse(query.since);
    if (Number.isNaN(since))
      return { ok: false, error: `since must be an ISO date or epoch milliseconds, got "${query.since}".` };
    filter.since = since;
  }
  if (query.limit) {
    const limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
      return { ok: false, error: `limit must be an integer 1..${MAX_LIMIT}, got "${query.limit}".` };
    filter.limit = limit;
  }
  return { ok: true, value: filter };
}

/**
 * Who is signing in, for the throttle: the peer's address (an IPv6 client by its /64, which one
 * host usually holds whole), or one shared key where the request came without a socket.
 */
export function clientKey(c: Context): string {
  const incoming = (c.env as { incoming?: Pick<IncomingMessage, 'socket'> } | undefined)?.incoming;
  const address = incoming?.socket.remoteAddress ?? 'unknown';
  if (!address.includes(':') || address.startsWith('::ffff:')) return address;
  return address.split(':').slice(0, 4).join(':');
}

export function addDeliveriesApi(api: DeliveriesApi): void {
  const { app, secret, store, runner, page } = api;
  const throttle = api.throttle ?? new SignInThrottle();
  const denied = (c: Context) =>
    c.json({ error: 'The webhook secret is required: send it in X-Webhook-Secret or sign in on the page.' }, 401);
  const tooLarge = (c: Context) =>
    c.json({ error: `The sign-in form is larger than ${MAX_SIGN_IN_BYTES} bytes.` }, 413);

  app.post('/sign-in', bodyLimit({ maxSize: MAX_SIGN_IN_BYTES, onError: tooLarge }), async (c) => {
    if (secret === undefined) return c.redirect('/', 303);
    const client = clientKey(c);
    const wait = throttle.waitMs(client);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      c.header('retry-after', String(seconds));
      return c.json({ error: `Too many failed sign-ins: try again in ${seconds} s.` }, 429);
    }
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const given = typeof form.secret === 'string' ? form.secret : '';
    if (!signIn(secret, given, c)) {
      throttle.failed(client);
      c.status(403);
      return page(c, true);
    }
    throttle.succeeded(client);
    return c.redirect('/', 303);
  });

  app.get('/deliveries', (c) => {
    if (!isSignedIn(secret, c)) return denied(c);
    if (!store) return c.json({ error: NO_STORE }, 404);
    const filter = parseDeliveryFilter(c.req.query());
    if (!filter.ok) return c.json({ error: filter.error }, 400);
    return c.json({ deliveries: store.list(filter.value).map(summarize) });
  });

  app.get('/deliveries/:id', (c) => {
    if (!isSignedIn(secret, c)) return denied(c);
    if (!store) return c.json({ error: NO_STORE }, 404);
    const d = store.get(c.req.param('id'));
    return d
      ? c.json({ ...detail(d), payload: shownPayload(d) })
      : c.json({ error: `No delivery ${c.req.param('id')}.` }, 404);
  });

  app.post('/deliveries/:id/replay', async (c) => {
    if (!isSignedIn(secret, c)) return denied(c);
    if (!store || !runner) return c.json({ error: NO_STORE }, 404);
    const id = c.req.param('id');
    const d = store.get(id);
    if (!d) return c.json({ error: `No delivery ${id}.` }, 404);
    if (!(await runner.replay(d))) return c.json({ error: `Delivery ${id} is running; replay it once it ends.` }, 409);
    // The page's button posts a form: back to the delivery it came from.
    if ((c.req.header('content-type') ?? '').includes('form')) return c.redirect(`/?delivery=${id}`, 303);
    return c.json({ deliveryId: id, state: d.state }, 202);
  });
}
