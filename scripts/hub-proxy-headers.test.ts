import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerHeaders,
  endToEndHeaders,
  HUB_FILE_POLICY,
  isDataType,
  ORIGIN_POLICY,
  requestHeaders,
} from './hub-proxy-headers.ts';
import { call, closeAll, json, startConsole, startHub, TOKEN } from './hub-proxy-test-kit.ts';
import { proxiedSecurityHeaders } from './security-headers.ts';

afterEach(closeAll);

describe('end-to-end headers', () => {
  const HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-authorization'];
  const name = fc.stringMatching(/^x-[a-z0-9-]{1,12}$/);

  it('keeps every end-to-end header in order and drops hop-by-hop ones, those Connection names, host and cookies', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.string({ maxLength: 20 })), { selector: ([k]) => k, maxLength: 8 }),
        fc.subarray(HOP),
        fc.boolean(),
        (kept, hop, nameOne) => {
          const named = nameOne && kept.length > 0 ? kept[0]![0] : undefined;
          const input: [string, string][] = [
            ...hop.map((k): [string, string] => [k, k === 'connection' ? `keep-alive, ${named ?? 'close'}` : 'x']),
            ['Host', '127.0.0.1:4700'],
            ['Cookie', 'a=b'],
            ['Set-Cookie', 'c=d'],
            ...kept,
          ];
          if (named && !hop.includes('connection')) input.push(['Connection', named]);
          expect(endToEndHeaders(input)).toEqual(kept.filter(([k]) => k !== named));
        },
      ),
    );
  });

  it('passes each value of a repeated header', () => {
    expect(endToEndHeaders([['x-a', ['1', '2']]])).toEqual([
      ['x-a', '1'],
      ['x-a', '2'],
    ]);
  });
});

describe('request headers', () => {
  it('a request without a body announces none: no Content-Length, whatever the page sent', () => {
    const sent: [string, string][] = [
      ['authorization', `Bearer ${TOKEN}`],
      ['content-length', '36'],
      ['expect', '100-continue'],
    ];
    expect(requestHeaders(sent, false)).toEqual([['authorization', `Bearer ${TOKEN}`]]);
    expect(requestHeaders(sent, true)).toEqual([
      ['authorization', `Bearer ${TOKEN}`],
      ['content-length', '36'],
    ]);
  });

  it("a GET with a body leaves the hub's keep-alive connection clean for the next user's request", async () => {
    // A hub that answers a GET at once, without reading a body: as a real server does.
    const hub = await startHub((req, _body, res) => json(res, 200, { auth: req.headers.authorization ?? null }), {
      early: true,
    });
    const console_ = await startConsole({ hubUrl: hub.url });
    const sneaky = '{"this":"body should never reach it"}';
    const first = await call(console_.port, '/api/whoami-v2', {
      headers: { authorization: 'Bearer hf_userA', 'content-length': String(sneaky.length) },
      body: sneaky,
    });
    expect(first.status).toBe(200);
    const second = await call(console_.port, '/api/whoami-v2', { headers: { authorization: 'Bearer hf_userB' } });
    expect(second.status).toBe(200);
    expect(JSON.parse(second.body.toString())).toEqual({ auth: 'Bearer hf_userB' });
    expect(hub.seen.map((r) => [r.method, r.headers.authorization, r.headers['content-length']])).toEqual([
      ['GET', 'Bearer hf_userA', undefined],
      ['GET', 'Bearer hf_userB', undefined],
    ]);
    // The same connection to the hub carried both: the point of the attack.
    expect(hub.seen[1]!.socket.remotePort).toBe(hub.seen[0]!.socket.remotePort);
  });
});

describe('answer headers: hub files are never active content on the console origin', () => {
  const HUB = 'https://hub.example/';
  const dataType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/vnd.xet-fileinfo+json',
    'application/octet-stream',
    'text/event-stream',
    'image/png',
    'image/webp',
  );
  const activeType = fc.constantFrom(
    'text/html',
    'text/html; charset=utf-8',
    'image/svg+xml',
    'application/xhtml+xml',
    'text/xml',
    'application/javascript',
    'text/plain',
    'application/pdf',
    'multipart/x-mixed-replace; boundary=x',
    '',
  );
  const policy = fc.uniqueArray(fc.tuple(fc.constantFrom(...ORIGIN_POLICY), fc.stringMatching(/^[\x21-\x7e]{1,30}$/)), {
    selector: ([k]) => k,
  });

  it('drops every origin policy header of the hub; whatever is not data is a sandboxed attachment', () => {
    fc.assert(
      fc.property(
        fc.oneof(dataType, activeType),
        policy,
        fc.option(fc.constantFrom('inline', 'inline; filename="x.html"', 'attachment; filename=a')),
        (type, hubPolicy, disposition) => {
          const from = Object.fromEntries([
            ...hubPolicy,
            ...(type ? [['content-type', type]] : []),
            ...(disposition ? [['content-disposition', disposition]] : []),
          ]);
          const out = answerHeaders(from, HUB);
          expect(out.get('x-content-type-options')).toBe('nosniff');
          const data = isDataType(type);
          for (const k of ORIGIN_POLICY)
            if (k === 'content-security-policy') expect(out.get(k)).toBe(data ? null : HUB_FILE_POLICY);
            else if (k !== 'x-content-type-options') expect(out.get(k), k).toBeNull();
          if (data) expect(out.get('content-disposition')).toBe(disposition);
          else expect(out.get('content-disposition')).toBe(`attachment${disposition?.replace(/^[^;]*/, '') ?? ''}`);
        },
      ),
    );
  });

  it('data types are the ones the page reads: JSON, bytes, event streams and raster images, not SVG or HTML', () => {
    for (const t of ['application/json', 'application/octet-stream', 'image/png', 'text/event-stream'])
      expect(isDataType(t), t).toBe(true);
    for (const t of ['text/html', 'image/svg+xml', 'text/javascript', 'application/xml', undefined])
      expect(isDataType(t), String(t)).toBe(false);
  });

  it('an HTML file on the hub comes back as a sandboxed download with the console headers, never the hub CSP', async () => {
    const hub = await startHub((req, _body, res) => {
      const html = req.url!.endsWith('.html');
      res.writeHead(200, {
        'content-type': html ? 'text/html' : 'application/json',
        'content-disposition': 'inline; filename="x.html"',
        'content-security-policy': "script-src * 'unsafe-inline'",
        'cross-origin-opener-policy': 'unsafe-none',
        'cross-origin-resource-policy': 'cross-origin',
        'clear-site-data': '"storage"',
        'x-content-type-options': 'sniff-away',
      });
      res.end(html ? '<script src="/alice/x/resolve/main/x.js"></script>' : '{}');
    });
    const console_ = await startConsole({ hubUrl: hub.url });
    const page = await call(console_.port, '/alice/x/resolve/main/x.html');
    expect(page.headers).toMatchObject({
      'content-disposition': 'attachment; filename="x.html"',
      'content-security-policy': HUB_FILE_POLICY,
      'x-content-type-options': 'nosniff',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(page.headers['clear-site-data']).toBeUndefined();
    const data = await call(console_.port, '/alice/x/resolve/main/config.json');
    expect(data.headers).toMatchObject({
      'content-type': 'application/json',
      'content-security-policy': proxiedSecurityHeaders['Content-Security-Policy'],
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(JSON.parse(data.body.toString())).toEqual({});
  });
});
