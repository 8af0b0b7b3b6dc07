import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from './delivery-context.ts';
import { samplePayload } from './sample-payload.ts';
import { createWebhooksServer, type WebhooksServer, type WebhooksServerOptions } from './server.ts';
import { DeliveryStore } from './store/delivery-store.ts';
import { storeDirs } from './store/test-store-dir.ts';
import { recordingLogger } from './test-logger.ts';

const dirs = storeDirs();
const servers: WebhooksServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown(0)));
  dirs.cleanup();
});

function storedServer(dir: string, options: WebhooksServerOptions = {}) {
  const server = createWebhooksServer({
    logger: recordingLogger(),
    store: dir,
    storeOptions: { fsync: false },
    retry: { baseMs: 1, maxMs: 5 },
    ...options,
  });
  servers.push(server);
  return server;
}

const body = (name = 'alice/tiny-model') => JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, name } }));
function deliver(server: WebhooksServer, route: string, text = body(), headers: Record<string, string> = {}) {
  return server.app.request(`/webhooks/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'hub-test', ...headers },
    body: text,
  });
}
const ackId = async (res: Response) => ((await res.json()) as { deliveryId: string }).deliveryId;

describe('accept, store, then handle', () => {
  it('acknowledges with 202 before the handler ends, which then runs in the background to done', async () => {
    const server = storedServer(dirs.make());
    let release!: () => void;
    const seen: { repo: unknown; attempt: number; id: string; agent: string | null }[] = [];
    server.add(async (payload, { deliveryId, attempt, headers }: DeliveryRequest) => {
      seen.push({ repo: payload.repo.name, attempt, id: deliveryId, agent: headers.get('user-agent') });
      await new Promise<void>((r) => (release = r));
      return { built: payload.repo.name };
    }, 'train');
    const res = await deliver(server, 'train');
    expect(res.status).toBe(202);
    const ack = (await res.json()) as { deliveryId: string; state: string };
    const id = ack.deliveryId;
    // the route was idle: stored as running, and the acknowledgement says so
    expect(ack.state).toBe('running');
    await new Promise((r) => setTimeout(r, 20));
    expect(server.store!.get(id)!.state).toBe('running');
    // the route is busy (concurrency 1): the next one waits, and its acknowledgement says so
    const next = (await (await deliver(server, 'train', body('alice/other'))).json()) as { state: string };
    expect(next.state).toBe('queued');
    release();
    // the queued delivery's handler starts once the first one ends
    await expect.poll(() => seen.length).toBe(2);
    release();
    await server.idle();
    expect(server.store!.get(id)).toMatchObject({ state: 'done', result: { built: 'alice/tiny-model' } });
    expect(seen.map((s) => s.repo)).toEqual(['alice/tiny-model', 'alice/other']);
    expect(seen[0]).toEqual({ repo: 'alice/tiny-model', attempt: 1, id, agent: 'hub-test' });
  });

  it('still refuses a wrong secret, bad JSON and a non-payload, and stores none of them', async () => {
    const server = storedServer(dirs.make(), { secret: 's' });
    server.add(() => 1, 'h');
    expect((await deliver(server, 'h')).status).toBe(401);
    expect((await deliver(server, 'h', body(), { 'x-webhook-secret': 'wrong' })).status).toBe(403);
    expect((await deliver(server, 'h', '{', { 'x-webhook-secret': 's' })).status).toBe(400);
    expect((await deliver(server, 'h', '{"a":1}', { 'x-webhook-secret': 's' })).status).toBe(422);
    expect(server.store!.size).toBe(0);
  });

  it('derives the id from route and body: the same body again is a duplicate, not run twice', async () => {
    const server = storedServer(dirs.make());
    let calls = 0;
    server.add(() => ++calls, 'a');
    server.add(() => ++calls, 'b');
    const first = await ackId(await deliver(server, 'a'));
    await server.idle();
    const again = await deliver(server, 'a');
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ deliveryId: first, state: 'done', duplicate: true });
    const otherRoute = await ackId(await deliver(server, 'b'));
    const otherBody = await ackId(await deliver(server, 'a', body('bob/other')));
    await server.idle();
    expect(new Set([first, otherRoute, otherBody]).size).toBe(3);
    expect(calls).toBe(3);
    expect(server.store!.get(first)!.duplicates).toBe(1);
  });

  it('a throwing handler goes failed, is retried with the next attempt number, then done', async () => {
    const server = storedServer(dirs.make());
    const states: string[] = [];
    server.add((_p, { attempt, deliveryId }: DeliveryRequest) => {
      states.push(server.store!.get(deliveryId)!.state);
      if (attempt < 3) throw new Error(`boom ${attempt}`);
      return 'ok';
    }, 'flaky');
    const id = await ackId(await deliver(server, 'flaky'));
    await server.idle();
    const d = server.store!.get(id)!;
    expect(states).toEqual(['running', 'running', 'running']);
    expect(d.state).toBe('done');
    expect(d.attempts.map((a) => [a.n, a.error])).toEqual([
      [1, 'boom 1'],
      [2, 'boom 2'],
      [3, undefined],
    ]);
  });

  it('is dead after the configured attempts; the failed state in between carries the error and next time', async () => {
    const server = storedServer(dirs.make(), { retry: { attempts: 2, baseMs: 200, maxMs: 200 } });
    server.add(() => {
      throw new Error('always');
    }, 'bad');
    const id = await ackId(await deliver(server, 'bad'));
    while (server.store!.get(id)!.state !== 'failed') await new Promise((r) => setTimeout(r, 5));
    const failed = server.store!.get(id)!;
    expect(failed).toMatchObject({ state: 'failed', error: 'always' });
    // Backoff 200 ms times a jitter factor in [0.5, 1.5).
    expect(failed.nextAttemptAt! - failed.attempts[0]!.endedAt!).toBeGreaterThanOrEqual(100);
    await server.idle();
    expect(server.store!.get(id)).toMatchObject({ state: 'dead', error: 'always' });
    expect(server.store!.get(id)!.attempts).toHaveLength(2);
  });

  it('a handler past its route timeout is aborted and fails with a timeout error', async () => {
    const server = storedServer(dirs.make(), { retry: { attempts: 1 } });
    let aborted = false;
    server.add(
      (_p, { signal }: DeliveryRequest) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve((aborted = true)))),
      'slow',
      { timeoutMs: 30 },
    );
    const id = await ackId(await deliver(server, 'slow'));
    await server.idle();
    expect(aborted).toBe(true);
    expect(server.store!.get(id)).toMatchObject({ state: 'dead', error: 'timed out after 30 ms' });
  });

  it('times out a handler that never settles nor looks at its signal; one that looks late finds it aborted', async () => {
    const server = storedServer(dirs.make(), { retry: { attempts: 1 } });
    let late: { aborted: boolean; reason: unknown; requestAborted: boolean } | undefined;
    server.add(() => new Promise(() => {}), 'stuck', { timeoutMs: 20 });
    server.add(
      async (_p, request: DeliveryRequest) => {
        await new Promise((r) => setTimeout(r, 60));
        late = {
          aborted: request.signal.aborted,
          reason: (request.signal.reason as Error).message,
          requestAborted: request.clone().signal.aborted,
        };
      },
      'late',
      { timeoutMs: 20 },
    );
    const stuck = await ackId(await deliver(server, 'stuck'));
    const lateId = await ackId(await deliver(server, 'late'));
    await server.idle();
    expect(server.store!.get(stuck)).toMatchObject({ state: 'dead', error: 'timed out after 20 ms' });
    expect(server.store!.get(lateId)).toMatchObject({ state: 'dead', error: 'timed out after 20 ms' });
    await new Promise((r) => setTimeout(r, 80));
    expect(late).toEqual({ aborted: true, reason: 'timed out after 20 ms', requestAborted: true });
  });

  it('runs one route in arrival order by default, and up to its concurrency and the global cap', async () => {
    const server = storedServer(dirs.make(), { concurrency: 3 });
    const order: string[] = [];
    let now = 0;
    let peakWide = 0;
    let peakAll = 0;
    let all = 0;
    const track = async (name: string, wide: boolean) => {
      all++;
      peakAll = Math.max(peakAll, all);
      if (wide) peakWide = Math.max(peakWide, ++now);
      order.push(name);
      await new Promise((r) => setTimeout(r, 15));
      if (wide) now--;
      all--;
    };
    server.add((p) => track(p.repo.name!, false), 'ordered');
    server.add((p) => track(p.repo.name!, true), 'wide', { concurrency: 5 });
    const names = Array.from({ length: 8 }, (_, i) => `o/${i}`);
    for (const n of names) await deliver(server, 'ordered', body(n));
    for (const n of names) await deliver(server, 'wide', body(`w/${n}`));
    await server.idle();
    expect(order.filter((n) => n.startsWith('o/'))).toEqual(names);
    expect(peakAll).toBe(3);
    expect(peakWide).toBeLessThanOrEqual(3);
  });

  it('each waiting delivery gets its own payload, also past those whose parsed payload is kept', async () => {
    const server = storedServer(dirs.make());
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const seen: [string, string][] = [];
    server.add(async (p, { deliveryId }: DeliveryRequest) => {
      seen.push([deliveryId, p.repo.name!]);
      await gate;
    }, 'one');
    // More than wait with their arrival's parsed payload (256): the rest parse their stored body.
    const names = Array.from({ length: 300 }, (_, i) => `q/${i}`);
    const ids = await Promise.all(names.map(async (n) => ackId(await deliver(server, 'one', body(n)))));
    release();
    await server.idle();
    expect(new Map(seen)).toEqual(new Map(ids.map((id, i) => [id, names[i]])));
    expect(seen).toHaveLength(names.length);
  });
});

describe('restart and shutdown', () => {
  it('on start runs again what was queued or running; an interrupted attempt counts and says so', async () => {
    const dir = dirs.make();
    const before = DeliveryStore.open(dir, { fsync: false });
    await before.add({ id: 'q', route: 'job', headers: {}, body: body('a/queued') });
    await before.add({ id: 'r', route: 'job', headers: {}, body: body('a/running') });
    await before.update('r', { state: 'running', attempts: [{ n: 1, startedAt: 1 }] });
    await before.close();

    const server = storedServer(dir);
    const ran: [string, number][] = [];
    server.add((p, { attempt }: DeliveryRequest) => ran.push([p.repo.name!, attempt]), 'job');
    await server.idle();
    expect(ran).toEqual([
      ['a/queued', 1],
      ['a/running', 2],
    ]);
    expect(server.store!.get('r')!.attempts[0]!.error).toMatch(/interrupted/);
    expect(server.store!.get('r')!.state).toBe('done');
  });

  it('a delivery that starts as it arrives is on disk as running when acknowledged: a crash then runs it again', async () => {
    const dir = dirs.make();
    const server = storedServer(dir, { storeOptions: { fsync: true } });
    const never = new Promise(() => {});
    let calls = 0;
    server.add(() => (calls++, never), 'job');
    const id = await ackId(await deliver(server, 'job'));
    expect(calls).toBe(1);
    // The folder as a kill right after the acknowledgement leaves it (the handler never ends).
    const copy = dirs.make();
    for (const f of fs.readdirSync(dir)) fs.copyFileSync(path.join(dir, f), path.join(copy, f));
    const onDisk = DeliveryStore.open(copy, { fsync: false });
    expect(onDisk.get(id)).toMatchObject({ state: 'running', attempts: [{ n: 1 }] });
    await onDisk.close();

    const restarted = storedServer(copy);
    const ran: number[] = [];
    restarted.add((_p, { attempt }: DeliveryRequest) => ran.push(attempt), 'job');
    await restarted.idle();
    expect(ran).toEqual([2]);
    expect(restarted.store!.get(id)!.attempts[0]!.error).toMatch(/interrupted/);
    expect(restarted.store!.get(id)!.state).toBe('done');
  });

  it('shutdown lets a quick handler finish and aborts a slow one at the deadline; it runs again next start', async () => {
    const dir = dirs.make();
    const server = storedServer(dir);
    server.add(() => new Promise((r) => setTimeout(() => r('quick'), 20)), 'quick');
    server.add(
      (_p, { signal }: DeliveryRequest) =>
        new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
      'stuck',
    );
    const quick = await ackId(await deliver(server, 'quick'));
    const stuck = await ackId(await deliver(server, 'stuck'));
    await new Promise((r) => setTimeout(r, 5));
    await server.shutdown(100);
    servers.splice(servers.indexOf(server), 1);

    const after = DeliveryStore.open(dir, { fsync: false });
    expect(after.get(quick)!.state).toBe('done');
    expect(after.get(stuck)).toMatchObject({ state: 'queued' });
    expect(after.get(stuck)!.attempts[0]!.error).toMatch(/shut down/);
    await after.close();

    const next = storedServer(dir);
    next.add((_p, { attempt }: DeliveryRequest) => `attempt ${attempt}`, 'stuck');
    await next.idle();
    expect(next.store!.get(stuck)).toMatchObject({ state: 'done', result: 'attempt 2' });
  });

  it('never writes the webhook secret to the store', async () => {
    const dir = dirs.make();
    const secret = 'never-on-disk-3f9a';
    const server = storedServer(dir, { secret });
    server.add(() => 'ok', 'h');
    const id = await ackId(
      await deliver(server, 'h', body(), { 'x-webhook-secret': secret, authorization: 'Bearer t' }),
    );
    await server.idle();
    await server.app.request(`/deliveries/${id}/replay`, { method: 'POST', headers: { 'x-webhook-secret': secret } });
    await server.idle();
    await server.shutdown(0);
    const bytes = fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f)).toString('latin1'));
    expect(bytes.join('')).toContain('alice/tiny-model');
    expect(bytes.join('')).not.toContain(secret);
    expect(bytes.join('')).not.toContain('Bearer t');
  });
});

describe('listing, replay and the page', () => {
  it('GET /deliveries and replay require the secret: header or the sign-in cookie', async () => {
    const server = storedServer(dirs.make(), { secret: 'page-secret' });
    server.add(() => 'ok', 'h');
    const id = await ackId(await deliver(server, 'h', body(), { 'x-webhook-secret': 'page-secret' }));
    await server.idle();
    expect((await server.app.request('/deliveries')).status).toBe(401);
    expect((await server.app.request('/deliveries', { headers: { 'x-webhook-secret': 'nope' } })).status).toBe(401);
    expect((await server.app.request(`/deliveries/${id}/replay`, { method: 'POST' })).status).toBe(401);
    const page = await (await server.app.request('/')).text();
    expect(page).toContain('action="/sign-in"');
    expect(page).not.toContain(id.slice(0, 12));

    const wrong = await server.app.request('/sign-in', { method: 'POST', body: new URLSearchParams({ secret: 'x' }) });
    expect(wrong.status).toBe(403);
    const signIn = await server.app.request('/sign-in', {
      method: 'POST',
      body: new URLSearchParams({ secret: 'page-secret' }),
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).not.toContain('page-secret');
    const listed = await server.app.request('/deliveries', { headers: { cookie } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ deliveries: [{ id, state: 'done', repo: 'alice/tiny-model' }] });
    expect(await (await server.app.request('/', { headers: { cookie } })).text()).toContain(id.slice(0, 12));
  });

  it('replay runs the handler again on the stored payload with a fresh retry budget', async () => {
    const server = storedServer(dirs.make(), { retry: { attempts: 1 } });
    let fail = true;
    server.add((_p, { attempt }: DeliveryRequest) => {
      if (fail) throw new Error('down');
      return { attempt };
    }, 'h');
    const id = await ackId(await deliver(server, 'h'));
    await server.idle();
    expect(server.store!.get(id)!.state).toBe('dead');
    fail = false;
    const replay = await server.app.request(`/deliveries/${id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    await server.idle();
    expect(server.store!.get(id)).toMatchObject({ state: 'done', result: { attempt: 2 }, replays: 1 });
    const form = await server.app.request(`/deliveries/${id}/replay`, {
      method: 'POST',
      body: new URLSearchParams({}),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`/?delivery=${id}`);
    expect((await server.app.request('/deliveries/nope/replay', { method: 'POST' })).status).toBe(404);
  });

  it('filters the listing by route, state and since, and names a bad filter', async () => {
    const server = storedServer(dirs.make());
    server.add(() => 'ok', 'a');
    server.add(() => {
      throw new Error('x');
    }, 'b');
    await deliver(server, 'a');
    await deliver(server, 'b');
    await server.idle();
    const list = async (q: string) =>
      ((await (await server.app.request(`/deliveries?${q}`)).json()) as { deliveries: { route: string }[] }).deliveries;
    expect((await list('route=a')).map((d) => d.route)).toEqual(['a']);
    expect((await list('state=done')).map((d) => d.route)).toEqual(['a']);
    expect(await list(`since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    const bad = await server.app.request('/deliveries?state=finished');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: expect.stringContaining('state must be one of') });
    expect((await server.app.request('/deliveries?since=yesterday')).status).toBe(400);
  });

  it('the page shows recent deliveries per route and one delivery with payload, attempts and result', async () => {
    const server = storedServer(dirs.make());
    server.add(() => ({ trained: '<model>' }), 'train');
    const id = await ackId(await deliver(server, 'train'));
    await server.idle();
    const page = await (await server.app.request('/')).text();
    expect(page).toContain('/webhooks/train');
    expect(page).toContain('repo.content update');
    expect(page).toContain(`href="/?delivery=${id}"`);
    const one = await (await server.app.request(`/?delivery=${id}`)).text();
    expect(one).toContain(`action="/deliveries/${id}/replay"`);
    expect(one).toContain('&#60;model&#62;');
    expect(one).toContain('Attempt 1');
    expect(one).toContain('alice/tiny-model');
  });

  it('without a store, /deliveries says how to get one', async () => {
    const server = createWebhooksServer({ logger: recordingLogger() });
    const res = await server.app.request('/deliveries');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.stringContaining('WEBHOOKS_STORE') });
  });
});
