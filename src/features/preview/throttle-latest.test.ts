import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleLatest } from './throttle-latest.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('throttleLatest', () => {
  it('calls at once, then at most once per interval, always ending on the latest value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 250 }), { minLength: 1, maxLength: 30 }), (gaps) => {
        vi.setSystemTime(0);
        const calls: { t: number; v: number }[] = [];
        const f = throttleLatest<number>(
          (v) => calls.push({ t: Date.now(), v }),
          100,
          () => Date.now(),
        );
        gaps.forEach((gap, v) => {
          vi.advanceTimersByTime(gap);
          f(v);
        });
        vi.advanceTimersByTime(100);
        expect(calls[0]).toEqual({ t: gaps[0], v: 0 });
        expect(calls.at(-1)!.v).toBe(gaps.length - 1);
        for (let i = 1; i < calls.length; i++) {
          expect(calls[i]!.t - calls[i - 1]!.t).toBeGreaterThanOrEqual(100);
          expect(calls[i]!.v).toBeGreaterThan(calls[i - 1]!.v);
        }
        f.cancel();
      }),
    );
  });

  it('cancel drops the call still waiting', () => {
    const calls: number[] = [];
    const f = throttleLatest<number>(
      (v) => calls.push(v),
      100,
      () => Date.now(),
    );
    f(1);
    f(2);
    f.cancel();
    vi.advanceTimersByTime(200);
    expect(calls).toEqual([1]);
  });
});
