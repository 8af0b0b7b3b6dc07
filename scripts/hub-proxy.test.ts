import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HubApiError } from '../src/hub/errors.ts';
import { createTransport } from '../src/hub/transport.ts';
import { isHubPath } from './hub-proxy.ts';
import { call, closeAll, closeNewest, json, startConsole, startHub, TOKEN } from './hub-proxy-test-kit.ts';

afterEach(closeAll);

describe('which paths go to the hub', () => {
  it('the API and the repository file routes, with or without a namespace and a datasets/spaces prefix', () => {
    for (const path of [
      '/api',
      '/api/whoami-v2',
      '/api/settings/notifications',
      '/alice/ckpt/resolve/main/transformer/config.json',
      '/datasets/alice/data/resolve/main/train.csv',
      '/spaces/alice/demo/resolve/refs%2Fpr%2F1/app.py',
      '/gpt2/resolve/main/config.json',
    ])
      expect(isHubPath(path), path).toBe(true);
    for (const path of ['/', '/inbox', '/orgs/acme/audit-log', '/assets/index-abc.js', '/apiary', '/a/b/c/resolve/x'])
      expect(isHubPath(path), path).toBe(false);
  });
});

describe('the hub proxy', () => {
  it('passes method, path, query, body and the Authorization header as sent, adds nothing, rewrites Host', async () => {
    const hub = await startHub((req, body, res) =>
      json(
        res,
        201,
        { got: body.toString() },
        {
          'x-request-id': 'r1',
          'set-cookie': 'hub=1',
          'keep-alive': 'timeout=77',
          connection: 'x-hub-hop',
          'x-hub-hop': '1',
        },
      ),
    );
    const console_ = await startConsole({ hubUrl: hub.url });
    const sent = JSON.stringify({ watched: [{ type: 'user', id: 'bob' }] });
    const answer = await call(console_.port, '/api/settings/watch?x=1&y=%2F', {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(sent)),
        cookie: 'console=secret',
        connection: 'keep-alive, x-hop',
        'x-hop': 'only for this connection',
        'x-custom': 'kept',
      },
      body: sent,
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body.toString())).toEqual({ got: sent });
    expect(answer.headers['x-request-id']).toBe('r1');
    expect(answer.headers['set-cookie']).toBeUndefined();
    // The console's server speaks for its own connection (its Keep-Alive), never with the hub's.
    expect(answer.headers['keep-alive']).not.toBe('timeout=77');
    expect(answer.headers['x-hub-hop']).toBeUndefined();
    expect(answer.headers.connection).not.toContain('x-hub-hop');
    const [req] = hub.seen;
    expect(`${req!.method} ${req!.url}`).toBe('PATCH /api/settings/watch?x=1&y=%2F');
    expect(req!.headers.host).toBe(new URL(hub.url).host);
    const { connection: _own, host: _host, ...passed } = req!.headers;
    expect(passed).toEqual({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(sent)),
      'x-custom': 'kept',
    });
  });

  it('keeps a path prefix of the hub URL', async () => {
    const hub = await startHub((req, _body, res) => json(res, 200, { url: req.url }));
    const console_ = await startConsole({ hubUrl: `${hub.url}/mirror/` });
    const answer = await call(console_.port, '/api/whoami-v2');
    expect(JSON.parse(answer.body.toString())).toEqual({ url: '/mirror/api/whoami-v2' });
  });

  it('passes a Range request and its 206 answer, length and compression as the hub sent them', async () => {
    const file = Buffer.from('0123456789');
    const hub = await startHub((req, _body, res) => {
      const [, from, to] = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '') ?? [];
      const part = file.subarray(Number(from), Number(to) + 1);
      res.writeHead(206, {
        'content-range': `bytes ${from}-${to}/${file.length}`,
        'content-length': part.length,
        'content-encoding': 'identity',
        etag: '"e1"',
      });
      res.end(part);
    });
    const console_ = await startConsole({ hubUrl: hub.url });
    const answer = await call(console_.port, '/alice/ckpt/resolve/main/transformer/w.safetensors', {
      headers: { range: 'bytes=2-5', 'accept-encoding': 'gzip, br' },
    });
    expect(answer.status).toBe(206);
    expect(answer.body.toString()).toBe('2345');
    expect(answer.headers).toMatchObject({ 'content-range': 'bytes 2-5/10', 'content-length': '4', etag: '"e1"' });
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(hub.seen[0]!.headers['accept-encoding']).toBe('gzip, br');
  });

  it('streams server-sent events as they come, not once the hub ends the answer', async () => {
    let sendSecond: () => void = () => {};
    const hub = await startHub((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      sendSecond = () => res.end('data: second\n\n');
    });
    const console_ = await startConsole({ hubUrl: hub.url });
    const response = await fetch(`${console_.url}/api/jobs/alice/j1/logs-stream`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('data: first\n\n');
    sendSecond();
    expect((await reader.read()).value).toBe('data: second\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it("closes the hub's event stream when the page closes its own", async () => {
    let hubClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (hubClosed = resolve));
    const hub = await startHub((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      res.on('close', hubClosed);
    });
    const console_ = await startConsole({ hubUrl: hub.url });
    const page = new AbortController();
    const response = await fetch(`${console_.url}/api/notifications/stream`, { signal: page.signal });
    await response.body!.getReader().read();
    page.abort();
    await closed;
  });

  it('answers HEAD and 304 without a body, with the headers the hub gave', async () => {
    const hub = await startHub((req, _body, res) => {
      if (req.headers['if-none-match'] === '"e1"') res.writeHead(304, { etag: '"e1"' }).end();
      else res.writeHead(200, { 'content-length': 1234, etag: '"e1"', 'x-repo-commit': 'abc' }).end();
    });
    const console_ = await startConsole({ hubUrl: hub.url });
    const path = '/alice/ckpt/resolve/main/config.json';
    const head = await call(console_.port, path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers).toMatchObject({ 'content-length': '1234', etag: '"e1"', 'x-repo-commit': 'abc' });
    expect(hub.seen[0]!.method).toBe('HEAD');
    const again = await call(console_.port, path, { headers: { 'if-none-match': '"e1"' } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe('"e1"');
  });

  it('passes on a request body over the mock hub limit (1 MB): the hub decides', async () => {
    const hub = await startHub((_req, body, res) =>
      json(res, 413, { error: `body: ${body.length} bytes is too large` }),
    );
    const console_ = await startConsole({ hubUrl: hub.url });
    const big = Buffer.alloc(3 * 1024 * 1024, 'a');
    const answer = await call(console_.port, '/api/settings/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
      body: big,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body.toString())).toEqual({ error: `body: ${big.length} bytes is too large` });
  });

  it('follows the file routes redirect to another host without the token, and keeps Range', async () => {
    const cdn = await startHub((req, _body, res) => {
      res.writeHead(206, { 'content-range': 'bytes 0-1/4', 'content-length': 2 });
      res.end('ab');
    });
    // As the real hub: a relative hop on the hub first, then the CDN.
    const hub = await startHub((req, _body, res) => {
      res.writeHead(req.url!.startsWith('/api/') ? 302 : 307, {
        location: req.url!.startsWith('/api/') ? `${cdn.url}/signed/object?sig=1` : '/api/resolve-cache/x',
      });
      res.end();
    });
    // The CDN is on 127.0.0.1 here, so this console lets redirects reach it (public addresses only by default).
    const console_ = await startConsole({ hubUrl: hub.url, redirectAddressAllowed: (a) => a === '127.0.0.1' });
    const answer = await call(console_.port, '/alice/ckpt/resolve/main/w.safetensors', {
      headers: { authorization: `Bearer ${TOKEN}`, range: 'bytes=0-1' },
    });
    expect(answer.status).toBe(206);
    expect(answer.body.toString()).toBe('ab');
    expect(hub.seen.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/alice/ckpt/resolve/main/w.safetensors', `Bearer ${TOKEN}`],
      ['/api/resolve-cache/x', `Bearer ${TOKEN}`],
    ]);
    expect(cdn.seen[0]!.url).toBe('/signed/object?sig=1');
    expect(cdn.seen[0]!.headers.authorization).toBeUndefined();
    expect(cdn.seen[0]!.headers.range).toBe('bytes=0-1');
  });

  it('passes a redirect answering a write, its Location on the console when it points at the hub', async () => {
    const hub = await startHub((req, _body, res) => {
      res.writeHead(307, { location: `http://${req.headers.host}/mirror/api/moved` });
      res.end();
    });
    const console_ = await startConsole({ hubUrl: `${hub.url}/mirror` });
    const answer = await call(console_.port, '/api/settings/webhooks', { method: 'POST', body: '{}' });
    expect(answer.status).toBe(307);
    expect(answer.headers.location).toBe('/api/moved');
  });

  it("points a list's next-page Link at the console, so the client follows it on its own origin", async () => {
    const hub = await startHub((req, _body, res) =>
      json(res, 200, [], {
        link: `<http://${req.headers.host}/api/jobs/alice?cursor=2>; rel="next", <https://elsewhere.example/x>; rel="help"`,
      }),
    );
    const console_ = await startConsole({ hubUrl: hub.url });
    const answer = await call(console_.port, '/api/jobs/alice');
    expect(answer.headers.link).toBe(
      '</api/jobs/alice?cursor=2>; rel="next", <https://elsewhere.example/x>; rel="help"',
    );
    const transport = createTransport({ baseUrl: console_.url, token: TOKEN });
    const { headers } = await transport.request({
      method: 'GET',
      path: '/api/jobs/alice',
      response: z.array(z.never()),
    });
    expect(transport.nextPagePath(headers)).toBe('/api/jobs/alice?cursor=2');
  });

  it('a hub that is down: 502 with "the hub at <url> did not answer" as the client shows it; no token in the log', async () => {
    const gone = await startHub(() => {});
    await closeNewest();
    const lines: string[] = [];
    const console_ = await startConsole({ hubUrl: gone.url, log: (l) => lines.push(l) });
    const transport = createTransport({ baseUrl: console_.url, token: TOKEN, maxRetries: 0 });
    const error = await transport
      .request({ method: 'GET', path: '/api/whoami-v2', response: z.object({}) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubApiError);
    expect((error as HubApiError).status).toBe(502);
    expect((error as HubApiError).hubMessage).toBe(`the hub at ${gone.url} did not answer (ECONNREFUSED)`);
    expect(lines).toEqual([`[hub-proxy] GET /api/whoami-v2: the hub at ${gone.url} did not answer (ECONNREFUSED)`]);
  });

  it('a hub that accepts but never answers: 502 once the wait for its answer is over', async () => {
    const hub = await startHub(() => {});
    const console_ = await startConsole({ hubUrl: hub.url, answerTimeoutMs: 50, log: () => {} });
    const answer = await call(console_.port, '/api/notifications');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body.toString())).toEqual({
      error: `the hub at ${hub.url} did not answer (no answer within 50 ms)`,
    });
  });

  it('leaves the page routes to the console', async () => {
    const hub = await startHub((_req, _body, res) => json(res, 200, {}));
    const console_ = await startConsole({ hubUrl: hub.url });
    expect((await call(console_.port, '/inbox')).body.toString()).toBe('the page');
    expect(hub.seen).toHaveLength(0);
  });
});
