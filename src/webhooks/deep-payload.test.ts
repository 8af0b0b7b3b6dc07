// A payload nested 200,000 arrays deep: refused on arrival, before the 2xx, with a 422 naming the
// limit; one an older version stored anyway is still shown by the page and the API, never a 500.
import { afterEach, describe, expect, it } from 'vitest';
import { samplePayload } from './sample-payload.ts';
import { MAX_PAYLOAD_DEPTH } from './arrival.ts';
import { createWebhooksServer, type WebhooksServer } from './server.ts';
import { DeliveryStore } from './store/delivery-store.ts';
import { storeDirs } from './store/test-store-dir.ts';
import { recordingLogger } from './test-logger.ts';

const DEPTH = 200_000;
const deep = JSON.stringify({ ...samplePayload(), x: 0 }).replace(
  '"x":0',
  `"x":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`,
);
const dirs = storeDirs();
const servers: WebhooksServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown(0)));
  dirs.cleanup();
});
const stored = (dir: string) => {
  const s = createWebhooksServer({ logger: recordingLogger(), store: dir, storeOptions: { fsync: false } });
  servers.push(s);
  return s;
};
const deliver = (s: WebhooksServer, body: string) =>
  s.app.request('/webhooks/h', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('a payload nested deeper than the limit', () => {
  it('is refused with 422 naming the limit, with and without a store, and nothing runs or is stored', async () => {
    let calls = 0;
    const plain = createWebhooksServer({ logger: recordingLogger() });
    const withStore = stored(dirs.make());
    for (const s of [plain, withStore]) {
      s.add(() => ++calls, 'h');
      const res = await deliver(s, deep);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: string }).error).toContain(`${MAX_PAYLOAD_DEPTH} levels`);
    }
    expect(calls).toBe(0);
    expect(withStore.store!.size).toBe(0);
  });

  it('one nested to the limit is accepted and shown', async () => {
    const s = stored(dirs.make());
    s.add(() => 'ok', 'h');
    // The payload object itself is one level.
    const n = MAX_PAYLOAD_DEPTH - 1;
    const body = JSON.stringify({ ...samplePayload(), x: 0 }).replace('"x":0', `"x":${'['.repeat(n)}${']'.repeat(n)}`);
    const res = await deliver(s, body);
    expect(res.status).toBe(202);
    const { deliveryId } = (await res.json()) as { deliveryId: string };
    expect((await s.app.request(`/deliveries/${deliveryId}`)).status).toBe(200);
  });

  it('stored by an older version: /deliveries/{id} and the page show it as text, never a 500', async () => {
    const dir = dirs.make();
    const before = DeliveryStore.open(dir, { fsync: false });
    await before.add({ id: 'deep', route: 'h', headers: {}, body: deep });
    await before.close();
    const s = stored(dir);
    s.add(() => 'ok', 'h');
    await s.idle();
    const api = await s.app.request('/deliveries/deep');
    expect(api.status).toBe(200);
    expect(((await api.json()) as { payload: unknown }).payload).toBe(deep);
    const page = await s.app.request('/?delivery=deep');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('[[[[');
  });
});
