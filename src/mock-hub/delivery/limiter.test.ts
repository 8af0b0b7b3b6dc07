import { describe, expect, it } from 'vitest';
import { KeyedLimiter } from './limiter.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('KeyedLimiter', () => {
  it('runs at most max tasks per key at once, in order, without holding back other keys', async () => {
    const limiter = new KeyedLimiter(2);
    let active = 0;
    let peak = 0;
    const order: string[] = [];
    const task = (name: string) => async () => {
      active += 1;
      peak = Math.max(peak, active);
      order.push(name);
      await tick();
      active -= 1;
      return name;
    };
    const slow = ['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => limiter.run('a', task(n)));
    const other = limiter.run('b', async () => {
      order.push('b');
      return 'b';
    });
    expect(await Promise.all(slow)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    await other;
    expect(peak).toBeLessThanOrEqual(3); // two of a + b
    expect(order.indexOf('b')).toBeLessThan(order.indexOf('a3'));
    expect(order.filter((n) => n.startsWith('a'))).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('frees the slot when a task throws', async () => {
    const limiter = new KeyedLimiter(1);
    await expect(limiter.run('k', async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await limiter.run('k', async () => 'ok')).toBe('ok');
  });
});
