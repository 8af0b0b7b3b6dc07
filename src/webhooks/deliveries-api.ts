// The delivery views of a receiver with a store: GET /deliveries (JSON, filters route, state, since),
// GET /deliveries/:id, POST /deliveries/:id/replay, and the sign-in form's POST /sign-in. All of
// them require the webhook secret when one is set.
import type { Context, Hono } from 'hono';
import type { DeliveryRunner } from './delivery-runner.ts';
import { isSignedIn, signIn } from './page-auth.ts';
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
}

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

export function addDeliveriesApi({ app, secret, store, runner, page }: DeliveriesApi): void {
  const denied = (c: Context) =>
    c.json({ error: 'The webhook secret is required: send it in X-Webhook-Secret or sign in on the page.' }, 401);

  app.post('/sign-in', async (c) => {
    if (secret === undefined) return c.redirect('/', 303);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const given = typeof form.secret === 'string' ? form.secret : '';
    if (!signIn(secret, given, c)) {
      c.status(403);
      return page(c, true);
    }
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
    return d ? c.json(detail(d)) : c.json({ error: `No delivery ${c.req.param('id')}.` }, 404);
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
