import { describe, expect, it } from 'vitest';
import { prepackFor } from './forward-command.ts';

describe('forward: prepacked weights where they pay off', () => {
  it('quantized weights always (their products are over 30% slower unpacked), float32 from 40 forwards, float16 never', () => {
    for (const n of [1, 39, 40, 1000]) {
      expect(prepackFor('int8', n)).toBe(true);
      expect(prepackFor('int4', n)).toBe(true);
      expect(prepackFor('float16', n)).toBe(false);
      expect(prepackFor('float32', n)).toBe(n >= 40);
    }
  });
});
