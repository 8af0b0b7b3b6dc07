import { AUDIT_EXPORT_LIMIT, type AuditLogEvent } from '../../hub/schemas/index.ts';

/**
 * The export stopped at the hub's cap (the newest 100,000 events), so older matching events may
 * exist. An export of exactly the cap counts as capped: the hub cannot say there were no more.
 */
export function hitExportCap(eventCount: number): boolean {
  return eventCount >= AUDIT_EXPORT_LIMIT;
}

export type SortKey = 'createdAt' | 'type' | 'author' | 'ip';
export type SortDir = 'asc' | 'desc';

const keyOf: Record<SortKey, (e: AuditLogEvent) => string> = {
  createdAt: (e) => e.createdAt,
  type: (e) => e.type,
  author: (e) => e.author.user,
  ip: (e) => e.ip ?? '',
};

/** Counts per event type, largest first: one pass over the events. */
export function typeCounts(events: readonly AuditLogEvent[]): { type: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return [...counts]
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
}

function isOrdered(keys: string[], dir: SortDir): boolean {
  for (let i = 1; i < keys.length; i++) {
    const c = keys[i - 1]! < keys[i]! ? -1 : keys[i - 1]! > keys[i]! ? 1 : 0;
    if (dir === 'desc' ? c < 0 : c > 0) return false;
  }
  return true;
}

/**
 * Row order as indexes into `events`. The export already comes newest first, so the default
 * order costs one linear check; other orders sort once per (events, key, dir), never per render.
 * Ties keep export order (stable sort), so equal keys stay newest first.
 */
export function sortIndexes(events: readonly AuditLogEvent[], key: SortKey, dir: SortDir): Uint32Array {
  const n = events.length;
  const keys = new Array<string>(n);
  const get = keyOf[key];
  for (let i = 0; i < n; i++) keys[i] = get(events[i]!);
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  if (isOrdered(keys, dir)) return idx;
  const sign = dir === 'asc' ? 1 : -1;
  const arr = Array.from(idx);
  arr.sort((a, b) => {
    const ka = keys[a]!;
    const kb = keys[b]!;
    return ka < kb ? -sign : ka > kb ? sign : a - b;
  });
  return Uint32Array.from(arr);
}

/** Keeps only rows of one type (the facet), preserving the current order. */
export function filterByType(events: readonly AuditLogEvent[], order: Uint32Array, type: string | null): Uint32Array {
  if (!type) return order;
  const out = new Uint32Array(order.length);
  let n = 0;
  for (let i = 0; i < order.length; i++) if (events[order[i]!]!.type === type) out[n++] = order[i]!;
  return out.subarray(0, n);
}
