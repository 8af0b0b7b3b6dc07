import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRetryAfter, retryAfterMs } from './retry-after.ts';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads Retry-After in seconds', () => {
    expect(retryAfterMs(new Headers({ 'Retry-After': '7' }), now)).toBe(7000);
  });

  it('reads Retry-After as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'Retry-After': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
  });

  it('reads the IETF RateLimit header, preferring the exhausted policy', () => {
    expect(retryAfterMs(new Headers({ RateLimit: '"api";r=0;t=12' }), now)).toBe(12_000);
    expect(parseRateLimit('"burst";r=5;t=2, "day";r=0;t=30')).toBe(30_000);
    expect(parseRateLimit('"burst";r=1;t=4, "day";r=3;t=9')).toBe(9000);
  });

  it('reads RateLimit-Reset seconds', () => {
    expect(retryAfterMs(new Headers({ 'RateLimit-Reset': '3' }), now)).toBe(3000);
  });

  it('prefers Retry-After over RateLimit and ignores garbage', () => {
    expect(retryAfterMs(new Headers({ 'Retry-After': '1', RateLimit: '"api";r=0;t=12' }), now)).toBe(1000);
    expect(retryAfterMs(new Headers({ 'Retry-After': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(new Headers({ RateLimit: '"api";r=0' }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });
});
