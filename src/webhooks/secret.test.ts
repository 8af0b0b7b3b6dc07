import { describe, expect, it } from 'vitest';
import { checkSecret, resolveSecret, secretMatches } from './secret.ts';

describe('secretMatches', () => {
  it('is true only for the identical string', () => {
    expect(secretMatches('s3cret', 's3cret')).toBe(true);
    expect(secretMatches('s3cret', 's3creT')).toBe(false);
    expect(secretMatches('s3cret', 's3cret ')).toBe(false);
  });

  it('compares secrets of different lengths without throwing', () => {
    expect(secretMatches('short', 'a much longer guess than the secret')).toBe(false);
    expect(secretMatches('x'.repeat(200), '')).toBe(false);
  });
});

describe('checkSecret', () => {
  it('accepts anything when no secret is configured', () => {
    expect(checkSecret(undefined, undefined)).toEqual({ ok: true });
    expect(checkSecret(undefined, 'whatever')).toEqual({ ok: true });
  });

  it('answers 401 without the header, 403 with a wrong one, ok with the right one', () => {
    expect(checkSecret('abc', undefined)).toMatchObject({ ok: false, status: 401 });
    expect(checkSecret('abc', null)).toMatchObject({ ok: false, status: 401 });
    expect(checkSecret('abc', 'abd')).toMatchObject({ ok: false, status: 403 });
    expect(checkSecret('abc', '')).toMatchObject({ ok: false, status: 403 });
    expect(checkSecret('abc', 'abc')).toEqual({ ok: true });
  });
});

describe('resolveSecret', () => {
  it('prefers the option, falls back to WEBHOOK_SECRET, treats empty as none', () => {
    expect(resolveSecret('opt', { WEBHOOK_SECRET: 'env' })).toBe('opt');
    expect(resolveSecret(undefined, { WEBHOOK_SECRET: 'env' })).toBe('env');
    expect(resolveSecret(undefined, {})).toBeUndefined();
    expect(resolveSecret(undefined, { WEBHOOK_SECRET: '' })).toBeUndefined();
  });
});
