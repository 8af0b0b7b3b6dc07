import { AUDIT_EVENT_TYPES, AUDIT_EXPORT_LIMIT, parseAuditQuery, type AuditLogEvent, type AuditQueryTerm } from '../../hub/schemas/index.ts';
import { generateAuditHistory, type AuditHistory } from './audit-history.ts';

export interface AuditLog {
  /** The org's seeded history (generated on first use). */
  history(org: string): AuditHistory;
  /**
   * The export body: `extra` (newer, from mutations) then the seeded history, newest first,
   * filtered by `q` (terms ANDed), at most AUDIT_EXPORT_LIMIT events, as JSON bytes. Cached per
   * org, query and extra-events head.
   */
  exportBody(org: string, q: string | undefined, extra: readonly AuditLogEvent[]): Uint8Array<ArrayBuffer>;
}

const CACHE_SIZE = 3;

function matchesEvent(e: AuditLogEvent, terms: AuditQueryTerm[]): boolean {
  return terms.every((t) => (t.key === 'author' ? e.author.user === t.value : t.key === 'ip' ? e.ip === t.value : e.type === t.value));
}

function seededMatcher(h: AuditHistory, terms: AuditQueryTerm[]): ((i: number) => boolean) | null {
  const checks: ((i: number) => boolean)[] = [];
  for (const t of terms) {
    if (t.key === 'author') {
      const a = h.authorNames.indexOf(t.value);
      if (a < 0) return null;
      checks.push((i) => h.author[i] === a);
    } else if (t.key === 'ip') {
      const p = h.ips.indexOf(t.value);
      if (p < 0) return null;
      checks.push((i) => h.ip[i] === p);
    } else {
      const ty = AUDIT_EVENT_TYPES.indexOf(t.value);
      checks.push((i) => h.type[i] === ty);
    }
  }
  return (i) => checks.every((c) => c(i));
}

export function createAuditLog(): AuditLog {
  const histories = new Map<string, AuditHistory>();
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  const history = (org: string) => {
    let h = histories.get(org);
    if (!h) histories.set(org, (h = generateAuditHistory(org)));
    return h;
  };
  return {
    history,
    exportBody(org, q, extra) {
      const terms = parseAuditQuery(q);
      const key = `${org}\n${terms.map((t) => `${t.key}:${t.value}`).sort().join(' ')}\n${extra.length}:${extra[0]?._id ?? ''}`;
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const parts: string[] = [];
      for (const e of extra) {
        if (parts.length >= AUDIT_EXPORT_LIMIT) break;
        if (matchesEvent(e, terms)) parts.push(JSON.stringify(e));
      }
      const h = history(org);
      const match = seededMatcher(h, terms);
      if (match) {
        for (let i = 0; i < h.json.length && parts.length < AUDIT_EXPORT_LIMIT; i++) if (match(i)) parts.push(h.json[i]!);
      }
      const body = new TextEncoder().encode(`[${parts.join(',')}]`);
      cache.set(key, body);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return body;
    },
  };
}
