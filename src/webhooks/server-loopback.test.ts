import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from './listen.ts';
import { samplePayload } from './sample-payload.ts';
import { MAX_PAYLOAD_BYTES } from './arrival.ts';
import { createWebhooksServer } from './server.ts';
import { recordingLogger } from './test-logger.ts';

describe('webhooks server over loopback', () => {
  let listening: Listening;
  const received: string[] = [];

  beforeAll(async () => {
    const server = createWebhooksServer({ secret: 'loop-secret', logger: recordingLogger() });
    server.add((p) => {
      received.push(p.repo.name ?? '');
      return { got: p.repo.name };
    }, 'count');
    server.add(() => {
      throw new Error('handler failed');
    }, 'broken');
    listening = await server.listen(0);
  });

  afterAll(async () => {
    await listening.close();
  });

  const send = (path: string, body: string, secret?: string) =>
    fetch(`${listening.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { 'x-webhook-secret': secret }) },
      body,
    });

  it('binds to 127.0.0.1 on a free port', () => {
    expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(listening.port).toBeGreaterThan(0);
  });

  it('answers 401, 403, 400, 500 and 200 over real HTTP', async () => {
    const body = JSON.stringify(samplePayload());
    expect((await send('/webhooks/count', body)).status).toBe(401);
    expect((await send('/webhooks/count', body, 'nope')).status).toBe(403);
    expect((await send('/webhooks/count', '<xml/>', 'loop-secret')).status).toBe(400);
    const broken = await send('/webhooks/broken', body, 'loop-secret');
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: 'handler failed' });
    const ok = await send('/webhooks/count', body, 'loop-secret');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ got: 'alice/tiny-model' });
  });

  it('calls the handler exactly once per accepted delivery under concurrency', async () => {
    received.length = 0;
    const names = Array.from({ length: 200 }, (_, i) => `org/repo-${i}`);
    const responses = await Promise.all(
      names.map((name) =>
        send(
          '/webhooks/count',
          JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, name } })),
          'loop-secret',
        ),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect([...received].sort()).toEqual([...names].sort());
  });

  it('answers 413 past the size limit whether the length is declared or streamed, and accepts what fits', async () => {
    received.length = 0;
    const fits = JSON.stringify({ ...samplePayload(), padding: 'x'.repeat(MAX_PAYLOAD_BYTES - 1000) });
    const huge = JSON.stringify({ ...samplePayload(), padding: 'x'.repeat(MAX_PAYLOAD_BYTES) });
    // A ReadableStream body goes out chunked, without Content-Length.
    const chunked = (body: string) =>
      fetch(`${listening.url}/webhooks/count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': 'loop-secret' },
        body: new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit);
    expect((await send('/webhooks/count', huge, 'loop-secret')).status).toBe(413);
    expect((await chunked(huge)).status).toBe(413);
    expect(received).toEqual([]);
    expect((await send('/webhooks/count', fits, 'loop-secret')).status).toBe(200);
    expect((await chunked(fits)).status).toBe(200);
    expect(received).toEqual(['alice/tiny-model', 'alice/tiny-model']);
  });

  it('serves the landing page with the real URL', async () => {
    const html = await (await fetch(`${listening.url}/`)).text();
    expect(html).toContain(`POST ${listening.url}/webhooks/count`);
    expect(html).toContain(`POST ${listening.url}/webhooks/broken`);
  });
});
