import { describe, expect, it } from 'vitest';
import { DeliveryLog } from './delivery-log.ts';
import { FailureTracker } from './failure-tracker.ts';
import { samplePayload } from '../../webhooks/sample-payload.ts';

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

describe('DeliveryLog', () => {
  const entry = (id: string, createdAt: string) => ({ id, createdAt, event: { action: 'update', scope: 'repo' }, target: 'u', status: 200, error: null, durationMs: 1 });

  it('lists newest first by start time even when deliveries finish out of order, and caps the size', () => {
    const log = new DeliveryLog(3);
    log.add('w', entry('1', '2026-01-01T00:00:01Z'), samplePayload());
    log.add('w', entry('3', '2026-01-01T00:00:03Z'), samplePayload());
    log.add('w', entry('2', '2026-01-01T00:00:02Z'), samplePayload());
    expect(log.list('w').map((e) => e.id)).toEqual(['3', '2', '1']);
    log.add('w', entry('4', '2026-01-01T00:00:04Z'), samplePayload());
    expect(log.list('w').map((e) => e.id)).toEqual(['4', '3', '2']);
    expect(log.find('w', '2')?.payload).toEqual(samplePayload());
    expect(log.list('other')).toEqual([]);
  });
});
