import { describe, expect, it } from 'vitest';
import type { RepositoryUsage } from '../../hub/schemas/index.ts';
import { summarize } from './usage-summary.ts';

const repo = (
  id: string,
  type: RepositoryUsage['type'],
  visibility: RepositoryUsage['visibility'],
  storage: number,
): RepositoryUsage => ({ id, type, visibility, storage, storagePercent: 0, updatedAt: '2026-01-01T00:00:00Z' });

describe('summarize', () => {
  it('totals bytes and counts overall, per type and per visibility, and picks the largest', () => {
    const s = summarize(
      [
        repo('a/m', 'model', 'public', 100),
        repo('a/d', 'dataset', 'private', 50),
        repo('a/s', 'space', 'protected', 7),
        repo('a/m2', 'model', 'private', 3),
      ],
      2,
    );
    expect(s).toMatchObject({ count: 4, bytes: 160 });
    expect(s.byVisibility).toEqual({
      public: { bytes: 100, count: 1 },
      private: { bytes: 53, count: 2 },
      protected: { bytes: 7, count: 1 },
    });
    expect(s.byType.find((t) => t.type === 'model')).toEqual({ type: 'model', bytes: 103, count: 2 });
    expect(s.byType.find((t) => t.type === 'kernel')).toEqual({ type: 'kernel', bytes: 0, count: 0 });
    expect(s.top.map((r) => r.id)).toEqual(['a/m', 'a/d']);
  });
});
