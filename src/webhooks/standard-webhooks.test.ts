import { afterEach, describe, expect, it } from 'vitest';
import { samplePayload } from './sample-payload.ts';
import { createWebhooksServer, type WebhooksServer } from './server.ts';
import { RecentIds, sign, signingKey, verifySignature } from './standard-webhooks.ts';
import { storeDirs } from './store/test-store-dir.ts';
import { recordingLogger } from './test-logger.ts';

const KEY = `whsec_${Buffer.from('relay-signing-key-0123456789').toString('base64')}`;
const OLD_KEY = `whsec_${Buffer.from('the-key-before-rotation').toString('base64')}`;
const body = JSON.stringify(samplePayload());
const now = () => String(Math.floor(Date.now() / 1000));

function signed(id: string, timestamp: string, keys: string[], text = body) {
  return new Headers({
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys.map((k) => `v1,${sign(signingKey(k), id, timestamp, text)}`).join(' '),
  });
}

describe('verifySignature', () => {
  const key = signingKey(KEY);

  it('accepts a valid signature, also among several (key rotation), and names the id', () => {
    expect(verifySignature(key, signed('msg_1', now(), [KEY]), body)).toEqual({ ok: true, webhookId: 'msg_1' });
    expect(verifySignature(key, signed('msg_1', now(), [OLD_KEY, KEY]), body).ok).toBe(true);
  });

  it('refuses another key, a changed body, a changed id, missing headers and a non-v1 scheme', () => {
    expect(verifySignature(key, signed('m', now(), [OLD_KEY]), body)).toMatchObject({ ok: false, status: 401 });
    expect(verifySignature(key, signed('m', now(), [KEY]), `${body} `).ok).toBe(false);
    const h = signed('m', now(), [KEY]);
    h.set('webhook-id', 'other');
    expect(verifySignature(key, h, body).ok).toBe(false);
    expect(verifySignature(key, new Headers(), body)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/required/),
    });
    const v2 = signed('m', now(), [KEY]);
    v2.set('webhook-signature', v2.get('webhook-signature')!.replace('v1,', 'v2,'));
    expect(verifySignature(key, v2, body).ok).toBe(false);
  });

  it('refuses a timestamp more than 5 minutes away, either side, and one that is not a number', () => {
    const t = Math.floor(Date.now() / 1000);
    expect(verifySignature(key, signed('m', String(t - 299), [KEY]), body).ok).toBe(true);
    expect(verifySignature(key, signed('m', String(t - 301), [KEY]), body).ok).toBe(false);
    expect(verifySignature(key, signed('m', String(t + 301), [KEY]), body).ok).toBe(false);
    expect(verifySignature(key, signed('m', 'soon', [KEY]), body)).toMatchObject({ ok: false, status: 400 });
  });
});

describe('a server verifying Standard Webhooks', () => {
  const dirs = storeDirs();
  const servers: WebhooksServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.shutdown(0)));
    dirs.cleanup();
  });
  const post = (server: WebhooksServer, headers: Headers) =>
    server.app.request('/webhooks/h', { method: 'POST', headers, body });

  it('without a store: runs the handler once per webhook-id and refuses a bad signature', async () => {
    const server = createWebhooksServer({ logger: recordingLogger(), secret: 'hub', standardWebhooksSecret: KEY });
    let calls = 0;
    server.add(() => ++calls, 'h');
    expect((await post(server, signed('msg_a', now(), [KEY]))).status).toBe(200);
    const again = await post(server, signed('msg_a', now(), [KEY]));
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect((await post(server, signed('msg_b', now(), [OLD_KEY]))).status).toBe(401);
    expect(calls).toBe(1);
  });

  it('without a store: a handler that throws leaves the webhook-id unhandled, so the retry runs it', async () => {
    const server = createWebhooksServer({ logger: recordingLogger(), standardWebhooksSecret: KEY });
    let calls = 0;
    server.add(() => {
      if (++calls === 1) throw new Error('downstream is down');
      return 'handled';
    }, 'h');
    const headers = signed('msg_retry', now(), [KEY]);
    expect((await post(server, headers)).status).toBe(500);
    const retry = await post(server, headers);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toBe('handled');
    expect(await (await post(server, headers)).json()).toMatchObject({ duplicate: true });
    expect(calls).toBe(2);
  });

  it('without a store: a retry that arrives while the handler runs gets 409, not a second run', async () => {
    const server = createWebhooksServer({ logger: recordingLogger(), standardWebhooksSecret: KEY });
    let release!: () => void;
    let calls = 0;
    server.add(() => (calls++, new Promise<string>((r) => (release = () => r('done')))), 'h');
    const headers = signed('msg_busy', now(), [KEY]);
    const first = post(server, headers);
    while (calls === 0) await new Promise((r) => setTimeout(r, 1));
    expect((await post(server, headers)).status).toBe(409);
    release();
    expect((await first).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('with a store: the delivery id follows webhook-id, so the same body under a new id is a new delivery', async () => {
    const server = createWebhooksServer({
      logger: recordingLogger(),
      standardWebhooksSecret: KEY,
      store: dirs.make(),
      storeOptions: { fsync: false },
    });
    servers.push(server);
    let calls = 0;
    server.add(() => ++calls, 'h');
    expect((await post(server, signed('msg_a', now(), [KEY]))).status).toBe(202);
    expect((await post(server, signed('msg_a', now(), [KEY]))).status).toBe(200);
    expect((await post(server, signed('msg_c', now(), [KEY]))).status).toBe(202);
    await server.idle();
    expect(calls).toBe(2);
  });
});

describe('RecentIds', () => {
  it('holds an id in progress for the window at most, handled ones for the window, failed ones not at all', () => {
    const ids = new RecentIds(1000);
    expect(ids.begin('a', 0)).toBe('new');
    expect(ids.begin('a', 999)).toBe('in-progress');
    // A handler that never settled: after the window its id can run again.
    expect(ids.begin('a', 1001)).toBe('new');
    ids.settle('a', false, 1002);
    expect(ids.begin('a', 1003)).toBe('new');
    ids.settle('a', true, 1004);
    expect(ids.begin('a', 2000)).toBe('handled');
    expect(ids.begin('a', 2005)).toBe('new');
  });
});
