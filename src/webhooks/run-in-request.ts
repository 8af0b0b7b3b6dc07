// A delivery handled inside the hub's request, as without a store: the handler's value is the answer.
import type { Context } from 'hono';
import { withDeliveryContext, type WebhookHandler } from './delivery-context.ts';
import type { WebhooksLogger } from './logger.ts';
import type { ReceivedWebhookPayload } from './payload-schema.ts';
import type { RecentIds } from './standard-webhooks.ts';

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Runs the handler inside the hub's request (no store). A Standard Webhooks id counts as handled
 * only once its handler succeeds: a sender's retry after a failure runs it again, and a retry that
 * arrives while it runs gets 409 and comes back later.
 */
export async function runInRequest(
  c: Context,
  handler: WebhookHandler,
  payload: ReceivedWebhookPayload,
  deliveryId: string,
  webhookId: string | undefined,
  ids: RecentIds,
  logger: WebhooksLogger,
): Promise<Response> {
  if (webhookId !== undefined) {
    const known = ids.begin(deliveryId);
    if (known === 'handled') return c.json({ deliveryId, duplicate: true });
    if (known === 'in-progress')
      return c.json({ error: `Delivery ${deliveryId} is being handled; send it again once it ends.` }, 409);
  }
  let ok = false;
  try {
    const result = await handler(payload, withDeliveryContext(c.req.raw, deliveryId, 1));
    ok = !(result instanceof Response) || result.ok;
    if (result instanceof Response) return result;
    return c.json((result ?? null) as object);
  } catch (err) {
    logger.error(`Webhook handler ${c.req.path} failed: ${errorMessage(err)}`);
    return c.json({ error: errorMessage(err) }, 500);
  } finally {
    if (webhookId !== undefined) ids.settle(deliveryId, ok);
  }
}
