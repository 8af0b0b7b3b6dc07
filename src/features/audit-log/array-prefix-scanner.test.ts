import { describe, expect, it } from 'vitest';
import { createArrayPrefixScanner } from './array-prefix-scanner.ts';

const items = [
  { a: 1, s: 'brace } in a string {', n: { deep: [1, { x: '"quoted" \\ back' }] } },
  { b: '[not an array]', e: '\\"' },
  { c: 3 },
];
const text = JSON.stringify(items, null, 1);

describe('createArrayPrefixScanner', () => {
  it('finds the first objects whatever the chunking', () => {
    for (const size of [1, 2, 7, 64, text.length]) {
      const scanner = createArrayPrefixScanner(2);
      for (let i = 0; i < text.length && !scanner.done; i += size) scanner.push(text.slice(i, i + size));
      expect(scanner.done).toBe(true);
      expect(scanner.items().map((t) => JSON.parse(t))).toEqual(items.slice(0, 2));
    }
  });

  it('returns what there is when the array is shorter than the limit', () => {
    const scanner = createArrayPrefixScanner(10);
    scanner.push(text);
    expect(scanner.done).toBe(false);
    expect(scanner.items().map((t) => JSON.parse(t))).toEqual(items);
  });
});
