import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth.ts';

/** The depth of a parsed value, recursively (fine for the small values generated here). */
function depthOf(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v !== null && typeof v === 'object') return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

describe('nestsDeeperThan', () => {
  it('agrees with the parsed value for any JSON, brackets inside strings and escapes included', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a') });
    const json = fc
      .jsonValue({ maxDepth: 8 })
      .chain((v) =>
        text.map((s) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, [s]: s } : [v, s])),
      );
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 10 }), (value, limit) => {
        const t = JSON.stringify(value);
        expect(nestsDeeperThan(t, limit)).toBe(depthOf(JSON.parse(t)) > limit);
      }),
    );
  });

  it('reads 200,000 nested arrays without a stack overflow', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(nestsDeeperThan(deep, 64)).toBe(true);
    expect(nestsDeeperThan(deep, 200_000)).toBe(false);
  });
});
