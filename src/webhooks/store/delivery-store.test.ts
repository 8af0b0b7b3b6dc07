import { afterEach, describe, expect, it } from 'vitest';
import { DeliveryStore } from './delivery-store.ts';
import { storeDirs } from './test-store-dir.ts';

const dirs = storeDirs();
afterEach(() => dirs.cleanup());

const arrival = (i: number) => ({ id: `id${i}`, route: 'r', headers: { 'user-agent': 'hub' }, body: `{"n":${i}}` });

describe('delivery store', () => {
  it('keeps arrivals and changes across a reopen, with arrival order continuing', async () => {
    const dir = dirs.make();
    const store = DeliveryStore.open(dir);
    await store.add(arrival(1));
    await store.add(arrival(2));
    await store.update('id1', { state: 'done', result: { ok: 1 }, attempts: [{ n: 1, startedAt: 1, endedAt: 2 }] });
    await store.close();
    const again = DeliveryStore.open(dir);
    expect(again.get('id1')).toMatchObject({ state: 'done', result: { ok: 1 }, body: '{"n":1}', seq: 1 });
    expect(again.get('id2')).toMatchObject({ state: 'queued', headers: { 'user-agent': 'hub' }, seq: 2 });
    expect((await again.add(arrival(3))).seq).toBe(3);
    // Deliveries read from disk compact like new ones.
    await again.compact();
    await again.close();
    const compacted = DeliveryStore.open(dir);
    expect([...compacted.all()].map((d) => [d.id, d.state, d.body])).toEqual([
      ['id1', 'done', '{"n":1}'],
      ['id2', 'queued', '{"n":2}'],
      ['id3', 'queued', '{"n":3}'],
    ]);
    await compacted.close();
  });

  it('a compaction writes what changed since the last one, also of a delivery it wrote before', async () => {
    const dir = dirs.make();
    const store = DeliveryStore.open(dir);
    await store.add(arrival(1));
    await store.add(arrival(2));
    await store.update('id1', { state: 'done', result: 'first' });
    await store.update('id2', { state: 'dead', error: 'boom' });
    await store.compact();
    // Finished and written by the compaction, then changed again (a duplicate, a replay that ends anew).
    await store.update('id1', { duplicates: 1 });
    await store.update('id2', { state: 'done', result: 'replayed', error: undefined, replays: 1 });
    await store.compact();
    await store.close();
    const again = DeliveryStore.open(dir);
    expect(again.get('id1')).toMatchObject({ state: 'done', result: 'first', duplicates: 1, body: '{"n":1}' });
    expect(again.get('id2')).toMatchObject({ state: 'done', result: 'replayed', replays: 1, body: '{"n":2}' });
    expect(again.get('id2')!.error).toBeUndefined();
    await again.close();
  });

  it('a cleared field stays cleared after a reopen', async () => {
    const dir = dirs.make();
    const store = DeliveryStore.open(dir);
    await store.add(arrival(1));
    await store.update('id1', { state: 'failed', error: 'boom', nextAttemptAt: 5 });
    await store.update('id1', { state: 'running', error: undefined, nextAttemptAt: undefined });
    await store.close();
    const again = DeliveryStore.open(dir);
    expect(again.get('id1')!.error).toBeUndefined();
    expect(again.get('id1')!.nextAttemptAt).toBeUndefined();
    expect(again.get('id1')!.state).toBe('running');
    await again.close();
  });

  it('compaction keeps the newest N deliveries, dropping finished ones only: an unfinished one stays', async () => {
    const dir = dirs.make();
    const store = DeliveryStore.open(dir, { maxDeliveries: 3 });
    for (let i = 1; i <= 8; i++) await store.add(arrival(i));
    for (const i of [1, 3, 4, 5, 6, 7, 8]) await store.update(`id${i}`, { state: i === 4 ? 'dead' : 'done' });
    await store.compact();
    // id2 is still queued: kept although it is old.
    expect([...store.all()].map((d) => d.id)).toEqual(['id2', 'id7', 'id8']);
    await store.close();
    const again = DeliveryStore.open(dir);
    expect([...again.all()].map((d) => d.id)).toEqual(['id2', 'id7', 'id8']);
    await again.close();
  });

  it('compaction drops finished deliveries older than D days', async () => {
    const dir = dirs.make();
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = DeliveryStore.open(dir, { maxAgeDays: 30, now: () => now });
    await store.add(arrival(1));
    await store.add(arrival(2));
    await store.update('id1', { state: 'done' });
    now += 31 * 24 * 3600 * 1000;
    await store.add(arrival(3));
    await store.compact();
    expect([...store.all()].map((d) => d.id)).toEqual(['id2', 'id3']);
    await store.close();
  });

  it('lists newest first with route, state, since and limit filters', async () => {
    const dir = dirs.make();
    let now = 1000;
    const store = DeliveryStore.open(dir, { now: () => now++ });
    await store.add(arrival(1));
    await store.add({ ...arrival(2), route: 'other' });
    await store.add(arrival(3));
    await store.update('id3', { state: 'done' });
    expect(store.list().map((d) => d.id)).toEqual(['id3', 'id2', 'id1']);
    expect(store.list({ route: 'r' }).map((d) => d.id)).toEqual(['id3', 'id1']);
    expect(store.list({ state: 'queued' }).map((d) => d.id)).toEqual(['id2', 'id1']);
    expect(store.list({ since: 1001 }).map((d) => d.id)).toEqual(['id3', 'id2']);
    expect(store.list({ limit: 1 }).map((d) => d.id)).toEqual(['id3']);
    await store.close();
  });
});
