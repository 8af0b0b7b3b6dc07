import type { HubContext } from '../hub-context.ts';
import { createDeliveryEngine, type DeliveryEngine, type DeliveryEngineOptions } from './engine.ts';
import { storeHost } from './store-host.ts';

// One engine per mock hub instance, kept beside the HubContext so route modules can reach it
// without the context type knowing about deliveries.
const engines = new WeakMap<HubContext, DeliveryEngine>();

const WEBHOOK_ROUTE = '/api/settings/webhooks/{webhookId}';
const WEBHOOK_ACTION_ROUTE = '/api/settings/webhooks/{webhookId}/{action}';

/** Creates the hub's delivery engine and follows webhook deletes and enables. Call once per hub. */
export function attachDeliveries(hub: HubContext, options: DeliveryEngineOptions = {}): DeliveryEngine {
  const existing = engines.get(hub);
  if (existing) return existing;
  const engine = createDeliveryEngine(storeHost(hub), options);
  hub.events.onMutation((m) => {
    const id = m.params.webhookId;
    if (!id) return;
    if (m.method === 'DELETE' && m.route === WEBHOOK_ROUTE) engine.resetFailures(id);
    // Enabling starts a fresh count of consecutive failures.
    if (m.method === 'POST' && m.route === WEBHOOK_ACTION_ROUTE && m.params.action === 'enable')
      engine.resetFailures(id);
  });
  engines.set(hub, engine);
  return engine;
}

/** The hub's engine, created with defaults if the app did not attach one. */
export function deliveriesOf(hub: HubContext): DeliveryEngine {
  return engines.get(hub) ?? attachDeliveries(hub);
}
