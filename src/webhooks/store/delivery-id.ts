import { hash } from 'node:crypto';

/**
 * The hub sends no id that is unique per delivery (`webhook.id` names the webhook, not the event),
 * so a delivery's id is derived from what it carries: SHA-256 over the route name, a newline and the
 * raw body, as hex, first 32 characters (128 bits). The hub's replay of a logged delivery sends the
 * same body to the same route, so it gets the same id. A relay that signs with Standard Webhooks
 * sends its own `webhook-id`; then the id is derived from the route and that instead.
 */
export function deliveryIdOf(route: string, body: string, webhookId?: string): string {
  const input = webhookId === undefined ? `${route}\n${body}` : `${route}\nwebhook-id:${webhookId}`;
  return hash('sha256', input, 'hex').slice(0, 32);
}
