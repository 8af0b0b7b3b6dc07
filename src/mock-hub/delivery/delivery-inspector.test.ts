import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEnvelope, WebhookList } from '../../hub/schemas/webhook.ts';
import {
  DELIVERY_RESPONSE_LIMIT_BYTES,
  TestEventResult,
  WebhookDelivery,
  WebhookLogList,
} from '../../hub/schemas/webhook-log.ts';
import { TOKENS } from '../seed/users.ts';
import { MASKED } from './delivery-log.ts';
import { eventually, startLoopback, type Loopback } from './loopback-harness.ts';

const BIG = 10_000;

/** A receiver with one behaviour per path; it records every body it gets. */
function rawReceiver() {
  const bodies: { path: string; body: string; secret: string | undefined }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', body, secret: req.headers['x-webhook-secret'] as string | undefined });
      if (req.url === '/echo') return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (req.url === '/big')
        return void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': BIG }).end('x'.repeat(BIG));
      if (req.url === '/chunked') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(BIG)); // no Content-Length
      if (req.url === '/fail')
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      if (req.url === '/hang') return; // never answers
      res.writeHead(204).end();
    });
  });
  return { server, bodies };
}

describe('delivery inspector: what the log keeps of each delivery', () => {
  let lb: Loopback;
  let receiver: ReturnType<typeof rawReceiver>;
  let base = '';

  beforeAll(async () => {
    receiver = rawReceiver();
    await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    lb = await startLoopback({ deliveries: { timeoutMs: 300, jobTiming: { schedulingMs: 20, runningMs: 20 } } });
  });
  afterAll(async () => {
    receiver.server.closeAllConnections();
    await new Promise<void>((r) => receiver.server.close(() => r()));
    await lb.close();
  });
  afterEach(async () => {
    await lb.engine.idle();
    for (const w of WebhookList.parse(await (await lb.api('/api/settings/webhooks')).json()))
      await lb.api(`/api/settings/webhooks/${w.id}`, { method: 'DELETE' });
    receiver.bodies.length = 0;
  });

  async function hookTo(path: string, extra: object = {}) {
    const res = await lb.api('/api/settings/webhooks', {
      body: {
        watched: [{ type: 'model', name: 'alice/inspected' }],
        domains: ['repo'],
        url: `${base}${path}`,
        ...extra,
      },
    });
    return WebhookEnvelope.parse(await res.json()).webhook.id;
  }
  async function deliverOnce(id: string) {
    await lb.api('/api/_mock/events', {
      body: { repo: { type: 'model', name: 'alice/inspected' }, scope: 'repo.content', action: 'update' },
    });
    const [entry] = await eventually(async () => {
      const list = WebhookLogList.parse(await (await lb.api(`/api/settings/webhooks/${id}/logs`)).json());
      return list.length ? list : undefined;
    });
    const res = await lb.api(`/api/settings/webhooks/${id}/logs/${entry!.id}`);
    expect(res.status).toBe(200);
    return { entry: entry!, detail: WebhookDelivery.parse(await res.json()) };
  }

  it('keeps the payload as sent, the headers with the secret masked, and the receiver’s answer', async () => {
    const id = await hookTo('/echo', { secret: 'top-secret-value' });
    const { entry, detail } = await deliverOnce(id);
    expect(entry).toMatchObject({ status: 200, failure: null, repo: { type: 'model', name: 'alice/inspected' } });
    // The list stays light: request and response only in the detail.
    expect(entry).not.toHaveProperty('request');
    const sent = receiver.bodies[0]!;
    expect(sent.secret).toBe('top-secret-value');
    expect(detail.request).toEqual({
      headers: expect.objectContaining({ 'content-type': 'application/json', 'x-webhook-secret': MASKED }),
      payload: sent.body,
      payloadBytes: Buffer.byteLength(sent.body),
      payloadTruncated: false,
    });
    expect(detail.response).toEqual({
      contentType: 'application/json',
      body: sent.body,
      bodyBytes: Buffer.byteLength(sent.body),
      bodyTruncated: false,
    });
    expect(JSON.stringify(lb.hub.store.state.webhookLogs[id])).not.toContain('top-secret-value');
    expect((await lb.api(`/api/settings/webhooks/${id}/logs/${'0'.repeat(24)}`)).status).toBe(404);
    expect((await lb.api(`/api/settings/webhooks/${id}/logs/${entry.id}`, { token: TOKENS.bobWrite })).status).toBe(
      404,
    );
  });

  it('keeps only the first 4 KB of a long answer, and says how long it was', async () => {
    const big = await hookTo('/big');
    const { detail } = await deliverOnce(big);
    expect(detail.response).toEqual({
      contentType: 'text/plain',
      body: 'x'.repeat(DELIVERY_RESPONSE_LIMIT_BYTES),
      bodyBytes: BIG,
      bodyTruncated: true,
    });
    expect((await lb.api(`/api/settings/webhooks/${big}`, { method: 'DELETE' })).status).toBe(200);
    // Without a Content-Length the whole size is unknown: the rest is never downloaded.
    const chunked = await deliverOnce(await hookTo('/chunked'));
    expect(chunked.detail.response).toEqual({
      contentType: 'text/plain',
      body: 'y'.repeat(DELIVERY_RESPONSE_LIMIT_BYTES),
      bodyBytes: null,
      bodyTruncated: true,
    });
  });

  it('names the failure: non-2xx (with the answer), refused, timeout', async () => {
    const failing = await hookTo('/fail');
    const failed = await deliverOnce(failing);
    expect(failed.detail).toMatchObject({
      status: 503,
      failure: 'non-2xx',
      error: 'HTTP 503',
      response: { body: 'down for maintenance', bodyTruncated: false },
    });
    expect((await lb.api(`/api/settings/webhooks/${failing}`, { method: 'DELETE' })).status).toBe(200);

    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refusedId = (await lb
      .api('/api/settings/webhooks', {
        body: {
          watched: [{ type: 'model', name: 'alice/inspected' }],
          domains: ['repo'],
          url: `http://127.0.0.1:${deadPort}/x`,
        },
      })
      .then((r) => r.json())) as { webhook: { id: string } };
    const refused = await deliverOnce(refusedId.webhook.id);
    expect(refused.detail).toMatchObject({ status: null, failure: 'refused', response: null });
    expect((await lb.api(`/api/settings/webhooks/${refusedId.webhook.id}`, { method: 'DELETE' })).status).toBe(200);

    const hang = await deliverOnce(await hookTo('/hang'));
    expect(hang.detail).toMatchObject({
      status: null,
      failure: 'timeout',
      error: 'timeout after 300 ms',
      response: null,
    });
  });

  it('a job webhook’s delivery keeps the payload handed to the job, with no HTTP request or answer', async () => {
    const res = await lb.api('/api/settings/webhooks', {
      body: {
        watched: [{ type: 'model', name: 'alice/inspected' }],
        domains: ['repo'],
        job: { dockerImage: 'python:3.12', flavor: 'cpu-basic' },
      },
    });
    const id = WebhookEnvelope.parse(await res.json()).webhook.id;
    const { detail } = await deliverOnce(id);
    expect(detail).toMatchObject({ status: 200, failure: null, response: null, request: { headers: {} } });
    expect(JSON.parse(detail.request!.payload)).toMatchObject({ webhook: { id }, repo: { name: 'alice/inspected' } });
  });

  it('"send test event" delivers one sample event to this webhook only, logged as a test', async () => {
    const id = await hookTo('/echo');
    const other = await hookTo('/echo');
    const refused = await lb.api(`/api/_mock/webhooks/${id}/test`, { body: { sample: 'discussion-comment' } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: expect.stringContaining('body.sample') });
    expect((await lb.api(`/api/_mock/webhooks/${id}/test`, { body: { sample: 'nope' } })).status).toBe(400);
    expect(
      (await lb.api(`/api/_mock/webhooks/${id}/test`, { body: { sample: 'repo-update' }, token: TOKENS.bobWrite }))
        .status,
    ).toBe(404);

    const res = await lb.api(`/api/_mock/webhooks/${id}/test`, { body: { sample: 'repo-update' } });
    expect(res.status).toBe(200);
    const result = TestEventResult.parse(await res.json());
    expect(result.status).toBe(200);
    // Answered once logged: the entry is there at once, about the repo the webhook watches.
    const list = WebhookLogList.parse(await (await lb.api(`/api/settings/webhooks/${id}/logs`)).json());
    expect(list).toEqual([
      expect.objectContaining({
        id: result.logId,
        test: true,
        status: 200,
        event: { scope: 'repo.content', action: 'update' },
        repo: { type: 'model', name: 'alice/inspected' },
      }),
    ]);
    expect(receiver.bodies).toHaveLength(1);
    expect(WebhookLogList.parse(await (await lb.api(`/api/settings/webhooks/${other}/logs`)).json())).toEqual([]);
  });
});

describe('replay after a restart', () => {
  it('re-sends the payload the log kept on disk', async () => {
    const receiver = rawReceiver();
    await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/echo`;
    const dataDir = mkdtempSync(join(tmpdir(), 'mock-hub-replay-'));
    const first = await startLoopback({ dataDir });
    const res = await first.api('/api/settings/webhooks', {
      body: { watched: [{ type: 'user', name: 'alice' }], domains: ['repo'], url },
    });
    const id = WebhookEnvelope.parse(await res.json()).webhook.id;
    const sent = TestEventResult.parse(
      await (await first.api(`/api/_mock/webhooks/${id}/test`, { body: { sample: 'repo-create' } })).json(),
    );
    await first.close();

    const second = await startLoopback({ dataDir });
    try {
      const replay = await second.api(`/api/settings/webhooks/${id}/replay/${sent.logId}`, { method: 'POST' });
      expect(await replay.json()).toEqual({ status: 200 });
      expect(receiver.bodies).toHaveLength(2);
      expect(receiver.bodies[1]!.body).toBe(receiver.bodies[0]!.body);
    } finally {
      await second.close();
      await new Promise<void>((r) => receiver.server.close(() => r()));
    }
  });
});
