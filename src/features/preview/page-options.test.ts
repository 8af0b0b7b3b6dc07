import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOptions } from './page-options.ts';

const decodeBudget = (value: string) =>
  pageOptions(new URLSearchParams({ decodeBudget: value }), false, 2).decodeBudget;

describe('?decodeBudget=', () => {
  it('sets the bytes a decode gets from a positive whole number; anything else leaves the default', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(decodeBudget(String(n))).toBe(n);
      }),
    );
    for (const bad of ['', '0', '-5', '1.5', '1e400', 'lots', '9007199254740993'])
      expect(decodeBudget(bad), bad).toBeNull();
    expect(pageOptions(new URLSearchParams(), false, 2).decodeBudget).toBeNull();
  });
});
