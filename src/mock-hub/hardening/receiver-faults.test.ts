// Fault injection on the delivery path: receivers that hang, reset the connection, or answer 500,
// all at once and many deliveries deep. The hub's other endpoints stay fast while the deliveries
// are pending, and every failed delivery is in the webhook's log.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEnvelope } from '../../hub/schemas/webhook.ts';
import { WebhookLogList } from '../../hub/schemas/webhook-log.ts';
import { MockEventResult } from '../delivery/event-schema.ts';
import { startLoopback, type Loopback } from '../delivery/loopback-harness.ts';

const TIMEOUT_MS = 1_500;
const EVENTS = 10;
/** Generous for a loaded 2-core CI box; an endpoint stuck behind a delivery would take TIMEOUT_MS. */
const FAST_MS = 1_000;

type Mode = 'hang' | 'reset' | 'error500';

describe('receivers that hang, reset or fail do not stall the hub, and every failure is logged', () => {
  let lb: Loopback;
  let faulty: Server;
  let faultyUrl = '';
  const hits: Record<Mode, number> = { hang: 0, reset: 0, error500: 0 };

  beforeAll(async () => {
    faulty = createServer((req, res) => {
      const mode = req.url!.slice(1) as Mode;
      hits[mode]++;
      if (mode === 'hang') return; // never answers; the hub's timeout ends it
      if (mode === 'reset') return req.socket.destroy();
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"receiver broke"}');
    });
    await new Promise<void>((r) => faulty.listen(0, '127.0.0.1', r));
    faultyUrl = `http://127.0.0.1:${(faulty.address() as AddressInfo).port}`;
    lb = await startLoopback({ deliveries: { timeoutMs: TIMEOUT_MS } });
  });
  afterAll(async () => {
    await lb?.close();
    faulty.closeAllConnections();
    await new Promise((r) => faulty.close(r));
  });

  async function timed(path: string, init?: { method?: string; body?: unknown }) {
    const t0 = performance.now();
    const res = await lb.api(path, init);
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  }

  it('hang, reset and 500 receivers at once', async () => {
    const ids = {} as Record<Mode, string>;
    for (const mode of ['hang', 'reset', 'error500'] as const) {
      const res = await lb.api('/api/settings/webhooks', {
        body: { watched: [{ type: 'user', name: 'alice' }], domains: ['repo'], url: `${faultyUrl}/${mode}` },
      });
      expect(res.status).toBe(200);
      ids[mode] = WebhookEnvelope.parse(await res.json()).webhook.id;
    }

    const reached: Record<string, number> = {};
    for (let i = 0; i < EVENTS; i++) {
      const t = performance.now();
      const res = await lb.api('/api/_mock/events', {
        body: { repo: { type: 'model', name: `alice/m${i}` }, scope: 'repo', action: 'update' },
      });
      expect(res.status).toBe(200);
      expect(performance.now() - t, 'emitting never waits for a delivery').toBeLessThan(FAST_MS);
      for (const r of MockEventResult.parse(await res.json()).reached)
        reached[r.webhookId] = (reached[r.webhookId] ?? 0) + 1;
    }
    // The hanging receiver fails only after the timeout, so it was reached by every event.
    expect(reached[ids.hang]).toBe(EVENTS);

    // While the hanging deliveries are pending, reads and writes answer promptly.
    const during = [];
    for (let i = 0; i < 5; i++) {
      during.push(await timed('/api/settings/webhooks'));
      during.push(await timed('/api/whoami-v2'));
      during.push(
        await timed('/api/settings/watch', { method: 'PATCH', body: { add: [{ id: 'bob', type: 'user' }] } }),
      );
    }
    // ...and they really were measured while deliveries hung: not all hanging deliveries are logged yet.
    expect(hits.hang).toBeGreaterThan(0);
    const pending = WebhookLogList.parse(await (await lb.api(`/api/settings/webhooks/${ids.hang}/logs`)).json());
    expect(pending.length).toBeLessThan(EVENTS);
    for (const d of during) expect(d.status).toBe(200);
    expect(
      Math.max(...during.map((d) => d.ms)),
      `latencies ${during.map((d) => Math.round(d.ms)).join(',')}`,
    ).toBeLessThan(FAST_MS);

    await lb.engine.idle();
    for (const mode of ['hang', 'reset', 'error500'] as const) {
      const logs = WebhookLogList.parse(await (await lb.api(`/api/settings/webhooks/${ids[mode]}/logs`)).json());
      // One entry per delivery that was started, each a failure with its reason.
      expect(logs.length, mode).toBe(reached[ids[mode]]);
      for (const e of logs) {
        expect(e.target).toBe(`${faultyUrl}/${mode}`);
        if (mode === 'hang') expect(e).toMatchObject({ status: null, error: `timeout after ${TIMEOUT_MS} ms` });
        if (mode === 'reset')
          expect(e).toMatchObject({
            status: null,
            error: expect.stringMatching(/ECONNRESET|socket|closed|terminated|fetch failed/i),
          });
        if (mode === 'error500') expect(e).toMatchObject({ status: 500, error: 'HTTP 500' });
      }
      // Five consecutive failures suspend the webhook.
      const hook = WebhookEnvelope.parse(await (await lb.api(`/api/settings/webhooks/${ids[mode]}`)).json()).webhook;
      expect(hook.disabled, mode).toBe('suspended-after-failure');
    }
    expect(hits.reset).toBe(reached[ids.reset]);
    expect(hits.error500).toBe(reached[ids.error500]);
  });
});
