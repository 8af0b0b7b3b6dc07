import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoizePromise } from './memoize-promise.ts';

describe('memoizePromise', () => {
  it('makes one promise per key for any sequence of asks, and makes it again after it failed', async () => {
    const asks = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()), { maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(asks, async (asks) => {
        const memo = new Map<number, Promise<number>>();
        /** the keys whose promise resolved: asked again, they make nothing */
        const resolved = new Set<number>();
        let made = 0;
        for (const [key, fails] of asks) {
          const makes = !resolved.has(key);
          const p = memoizePromise(memo, key, async () => {
            made++;
            if (fails) throw new Error(`${key} failed`);
            return key * 10;
          });
          if (makes && !fails) resolved.add(key);
          expect(await p.then(String, () => 'failed')).toBe(resolved.has(key) ? String(key * 10) : 'failed');
          expect(memo.has(key)).toBe(resolved.has(key));
        }
        expect(made).toBe(asks.filter(([key], i) => !asks.slice(0, i).some(([k, f]) => k === key && !f)).length);
      }),
    );
  });

  it('a failure drops only its own promise, not one made for the key after it', async () => {
    const memo = new Map<string, Promise<string>>();
    let fail!: (e: Error) => void;
    const first = memoizePromise(memo, 'k', () => new Promise<string>((_, reject) => (fail = reject)));
    memo.delete('k');
    const second = memoizePromise(memo, 'k', async () => 'second');
    fail(new Error('first failed'));
    await expect(first).rejects.toThrow('first failed');
    expect(memo.get('k')).toBe(second);
  });
});
