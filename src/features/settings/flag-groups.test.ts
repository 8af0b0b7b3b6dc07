import { describe, expect, it } from 'vitest';
import { NOTIFICATION_FLAGS } from '../../hub/schemas/index.ts';
import { FLAG_GROUPS } from './flag-groups.ts';

describe('FLAG_GROUPS', () => {
  it('shows every notification flag of the spec exactly once', () => {
    const shown = FLAG_GROUPS.flatMap((g) => g.flags.map((f) => f.flag));
    expect([...shown].sort()).toEqual([...NOTIFICATION_FLAGS].sort());
  });

  it('gives every flag a label that is unique within its group', () => {
    for (const g of FLAG_GROUPS) {
      const labels = g.flags.map((f) => f.label);
      expect(new Set(labels).size).toBe(labels.length);
      for (const l of labels) expect(l.trim()).not.toBe('');
    }
  });
});
