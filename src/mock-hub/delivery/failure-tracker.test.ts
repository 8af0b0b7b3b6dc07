import { describe, expect, it } from 'vitest';
import { FailureTracker } from './failure-tracker.ts';

describe('FailureTracker', () => {
  it('fires on the 5th consecutive failure, and a success in between restarts the count', () => {
    const t = new FailureTracker(5);
    const fired = [false, false, false, false].map(() => t.record('w', false));
    expect(fired).toEqual([false, false, false, false]);
    expect(t.record('w', true)).toBe(false);
    expect([1, 2, 3, 4].map(() => t.record('w', false))).toEqual([false, false, false, false]);
    expect(t.record('w', false)).toBe(true);
    expect(t.current('w')).toBe(0);
  });

  it('counts each webhook separately', () => {
    const t = new FailureTracker(2);
    t.record('a', false);
    expect(t.record('b', false)).toBe(false);
    expect(t.record('a', false)).toBe(true);
  });
});
