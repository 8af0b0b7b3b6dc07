// Mock hub delivery under a receiver that never answers: the hub's other endpoints must stay
// fast while deliveries hang, and events keep being accepted at once.
import { createMockHub } from '../src/mock-hub/app.ts';
import { attachDeliveries } from '../src/mock-hub/delivery/registry.ts';
import { TOKENS } from '../src/mock-hub/seed/users.ts';
import { listen } from '../src/webhooks/listen.ts';
import { createWebhooksServer } from '../src/webhooks/server.ts';
import { figure, median, type Figure } from './figure.ts';

const HUNG_EVENTS = 40;
const PROBES = 200;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

async function probe(url: string): Promise<number[]> {
  const lat: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/settings/webhooks`, {
      headers: { authorization: `Bearer ${TOKENS.aliceWrite}` },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /api/settings/webhooks answered ${res.status}`);
    lat.push(performance.now() - t0);
  }
  return lat;
}

export async function deliveryFigures(): Promise<Figure[]> {
  const hub = await createMockHub({ seed: false });
  const engine = attachDeliveries(hub.context);
  const hubHttp = await listen(hub.app.fetch, 0);
  const receiver = createWebhooksServer({ secret: 's', logger: { info() {}, warn() {}, error() {} } });
  receiver.add(() => new Promise(() => {}), 'hang');
  const receiverHttp = await receiver.listen(0);
  const call = (path: string, body: unknown) =>
    fetch(`${hubHttp.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.aliceWrite}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    const created = await call('/api/settings/webhooks', {
      watched: [{ type: 'user', name: 'alice' }],
      domains: ['repo'],
      url: `${receiverHttp.url}/webhooks/hang`,
      secret: 's',
    });
    if (created.status !== 200) throw new Error(`creating the webhook answered ${created.status}`);
    const baseline = await probe(hubHttp.url);

    const emitMs: number[] = [];
    for (let i = 0; i < HUNG_EVENTS; i++) {
      const t0 = performance.now();
      const res = await call('/api/_mock/events', {
        repo: { type: 'model', name: 'alice/m' },
        scope: 'repo',
        action: 'update',
      });
      await res.arrayBuffer();
      emitMs.push(performance.now() - t0);
    }
    const during = await probe(hubHttp.url);
    return [
      figure('webhooks', 'hub: POST /api/_mock/events to a receiver that never answers, median', median(emitMs), 'ms', {
        op: '<',
        value: 50,
      }),
      figure('webhooks', 'hub: GET /api/settings/webhooks p50, no delivery in flight', median(baseline), 'ms'),
      figure(
        'webhooks',
        `hub: GET /api/settings/webhooks p50 with ${HUNG_EVENTS} deliveries hanging`,
        median(during),
        'ms',
        { op: '<', value: 50 },
      ),
      figure(
        'webhooks',
        `hub: GET /api/settings/webhooks p99 with ${HUNG_EVENTS} deliveries hanging`,
        percentile(during, 0.99),
        'ms',
      ),
    ];
  } finally {
    // Closing the receiver ends the hung deliveries (they fail), then the hub goes.
    await receiverHttp.close();
    await engine.idle();
    engine.close();
    await hubHttp.close();
    await hub.close();
  }
}
