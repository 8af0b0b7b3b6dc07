// The deliveries' listing, replay and page of a receiver with a store, and what the store keeps of secrets.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from './delivery-context.ts';
import { createWebhooksServer } from './server.ts';
import { recordingLogger } from './test-logger.ts';
import { ackId, body, cleanupStoredServers, deliver, storedServers } from './test-stored-server.ts';

const { dirs, storedServer } = storedServers();
afterEach(cleanupStoredServers);

describe('secrets', () => {
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
