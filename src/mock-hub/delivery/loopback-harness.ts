import { listen, type Listening } from '../../webhooks/listen.ts';
import { createWebhooksServer, type WebhooksServer } from '../../webhooks/server.ts';
import { createMockHub, type MockHub } from '../app.ts';
import { TOKENS } from '../seed/users.ts';
import type { DeliveryEngine, DeliveryEngineOptions } from './engine.ts';
import { attachDeliveries } from './registry.ts';

/** A mock hub (empty state) and a receiving server, both on loopback, for delivery tests. */
export interface Loopback {
  hub: MockHub;
  hubUrl: string;
  engine: DeliveryEngine;
  receiver: WebhooksServer;
  receiverUrl: string;
  /** Calls the hub as a user (demo token). */
  api(path: string, init?: { method?: string; body?: unknown; token?: string }): Promise<Response>;
  close(): Promise<void>;
}

export async function startLoopback(
  options: { receiverSecret?: string; deliveries?: DeliveryEngineOptions; dataDir?: string } = {},
): Promise<Loopback> {
  const hub = await createMockHub({ seed: false, ...(options.dataDir ? { dataDir: options.dataDir } : {}) });
  const engine = attachDeliveries(hub.context, options.deliveries);
  const hubListening: Listening = await listen(hub.app.fetch, 0);
  const receiver = createWebhooksServer({
    secret: options.receiverSecret ?? '',
    logger: { info() {}, warn() {}, error() {} },
  });
  const receiverListening = await receiver.listen(0);
  return {
    hub,
    hubUrl: hubListening.url,
    engine,
    receiver,
    receiverUrl: receiverListening.url,
    api: (path, init = {}) =>
      fetch(`${hubListening.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${init.token ?? TOKENS.aliceWrite}`, 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      }),
    async close() {
      engine.close();
      await Promise.all([hubListening.close(), receiverListening.close()]);
      await hub.close();
    },
  };
}

/** Polls until `read` returns something truthy (deliveries finish in the background). */
export async function eventually<T>(read: () => Promise<T | undefined | false>, timeoutMs = 5_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
