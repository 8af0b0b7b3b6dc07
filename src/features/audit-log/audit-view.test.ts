import { describe, expect, it } from 'vitest';
import type { AuditLogEvent } from '../../hub/schemas/index.ts';
import { filterByType, hitExportCap, sortIndexes, typeCounts } from './audit-view.ts';

const ev = (createdAt: string, type: string, user: string, ip?: string) =>
  ({
    _id: '0'.repeat(24),
    createdAt,
    type,
    message: '',
    author: { _id: '0'.repeat(24), user, avatarUrl: '', type: 'user' },
    ...(ip ? { ip } : {}),
  }) as AuditLogEvent;

const events = [
  ev('2026-01-03T00:00:00Z', 'repo.create', 'bob', '10.0.0.2'),
  ev('2026-01-02T00:00:00Z', 'org.create', 'alice'),
  ev('2026-01-01T00:00:00Z', 'repo.create', 'carol', '10.0.0.1'),
];

describe('audit view', () => {
  it('keeps the export order when it is already newest first', () => {
    expect(Array.from(sortIndexes(events, 'createdAt', 'desc'))).toEqual([0, 1, 2]);
    expect(Array.from(sortIndexes(events, 'createdAt', 'asc'))).toEqual([2, 1, 0]);
  });

  it('sorts by other columns, ties in export order', () => {
    expect(Array.from(sortIndexes(events, 'type', 'asc'))).toEqual([1, 0, 2]);
    expect(Array.from(sortIndexes(events, 'author', 'desc'))).toEqual([2, 0, 1]);
    expect(Array.from(sortIndexes(events, 'ip', 'asc'))).toEqual([1, 2, 0]);
  });

  it('counts types, largest first, and filters by one', () => {
    expect(typeCounts(events)).toEqual([
      { type: 'repo.create', count: 2 },
      { type: 'org.create', count: 1 },
    ]);
    const order = sortIndexes(events, 'createdAt', 'asc');
    expect(Array.from(filterByType(events, order, 'repo.create'))).toEqual([2, 0]);
    expect(filterByType(events, order, null)).toBe(order);
  });
});

describe('hitExportCap', () => {
  it("is true only when the export reached the hub's 100,000-event cap", () => {
    expect(hitExportCap(100_000)).toBe(true);
    expect(hitExportCap(99_999)).toBe(false);
    expect(hitExportCap(0)).toBe(false);
  });
});
