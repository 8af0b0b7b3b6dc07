import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHubClient } from './client.ts';
import { HubApiError, HubNetworkError } from './errors.ts';
import { fakeFetch, json } from './fake-fetch.ts';

const MCP = { builtInTools: ['search'], spaceTools: [] };
const tooMany = (headers: Record<string, string>) => json({ error: 'Too many requests' }, 429, headers);
const mk = (f: ReturnType<typeof fakeFetch>, extra = {}) =>
  createHubClient({ baseUrl: 'http://hub.test', token: 'hf_alice_write', fetch: f.fetch, ...extra });

describe('429 handling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for Retry-After seconds, then retries', async () => {
    const f = fakeFetch(tooMany({ 'Retry-After': '3' }), json(MCP));
    const p = mk(f).getMcpSettings();
    await vi.advanceTimersByTimeAsync(2900);
    expect(f.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await expect(p).resolves.toEqual(MCP);
    expect(f.calls).toHaveLength(2);
  });

  it('waits for the RateLimit t= of the exhausted policy', async () => {
    const f = fakeFetch(tooMany({ RateLimit: '"api";r=0;t=5', 'RateLimit-Policy': '"api";q=100;w=60' }), json(MCP));
    const p = mk(f).getMcpSettings();
    await vi.advanceTimersByTimeAsync(4900);
    expect(f.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    await expect(p).resolves.toEqual(MCP);
  });

  it('gives up after maxRetries with the 429 error', async () => {
    const f = fakeFetch(tooMany({ 'Retry-After': '1' }));
    const p = mk(f, { maxRetries: 2 }).getMcpSettings();
    const settled = expect(p).rejects.toMatchObject({ status: 429, retryAfterMs: 1000 });
    await vi.advanceTimersByTimeAsync(5000);
    await settled;
    expect(f.calls).toHaveLength(3);
  });

  it('does not wait longer than the cap: fails at once with the advised wait', async () => {
    const f = fakeFetch(tooMany({ 'Retry-After': '120' }));
    const e = await mk(f)
      .getMcpSettings()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HubApiError);
    expect((e as HubApiError).retryAfterMs).toBe(120_000);
    expect(f.calls).toHaveLength(1);
  });

  it('backs off without a header and does not retry other 4xx', async () => {
    const f = fakeFetch(tooMany({}), json(MCP));
    const p = mk(f).getMcpSettings();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(p).resolves.toEqual(MCP);

    const g = fakeFetch(json({ error: 'no' }, 403));
    await expect(mk(g).getMcpSettings()).rejects.toMatchObject({ status: 403 });
    expect(g.calls).toHaveLength(1);
  });

  it('can be aborted while waiting to retry', async () => {
    const f = fakeFetch(tooMany({ 'Retry-After': '10' }));
    const controller = new AbortController();
    const p = mk(f).getMcpSettings({ signal: controller.signal });
    const settled = expect(p).rejects.toBeInstanceOf(HubNetworkError);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await settled;
    expect(f.calls).toHaveLength(1);
  });
});
