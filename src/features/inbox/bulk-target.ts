import type { NotificationFilters } from '../../hub/schemas/index.ts';

type Filters = Omit<NotificationFilters, 'p'>;

/** What a bulk action applies to: the picked rows, or everything matching the filters. */
export type BulkTarget =
  | { kind: 'ids'; ids: string[] }
  | {
      kind: 'all';
      filters: Filters;
      /** rows on screen; the hub's DELETE body needs at least one id */ visibleIds: string[];
      count: number;
    };

export function targetSize(t: BulkTarget): number {
  return t.kind === 'ids' ? t.ids.length : t.count;
}
