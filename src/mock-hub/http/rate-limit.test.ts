import { describe, expect, it } from 'vitest';
import { TOKENS, call, testHub } from '../test-support.ts';
import { rateLimitFromEnv } from './rate-limit.ts';

describe('optional rate limit', () => {
  it('answers 429 with Retry-After once a token used its window, other tokens unaffected', async () => {
    const hub = await testHub({ rateLimit: { requests: 2, windowMs: 60_000 } });
    const a = await call(hub, 'GET', '/api/settings/mcp');
    expect(a.headers.get('ratelimit')).toMatch(/^limit=2, remaining=1, reset=\d+$/);
    expect((await call(hub, 'GET', '/api/settings/mcp')).status).toBe(200);
    const refused = await call(hub, 'GET', '/api/settings/mcp');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error).toContain('rate limit');
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect((await call(hub, 'GET', '/api/settings/mcp', { token: TOKENS.bobWrite })).status).toBe(200);
  });

  it('is off by default and parses MOCK_HUB_RATE_LIMIT', async () => {
    const hub = await testHub();
    for (let i = 0; i < 5; i++) expect((await call(hub, 'GET', '/api/settings/mcp')).status).toBe(200);
    expect(rateLimitFromEnv('5/1')).toEqual({ requests: 5, windowMs: 1000 });
    expect(rateLimitFromEnv('junk')).toBeUndefined();
  });
});
