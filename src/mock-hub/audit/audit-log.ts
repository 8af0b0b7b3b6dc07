import {
  AUDIT_EVENT_TYPES,
  AUDIT_EXPORT_LIMIT,
  parseAuditQuery,
  type AuditLogEvent,
  type AuditQueryTerm,
} from '../../hub/schemas/index.ts';
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
const OPEN = 0x5b;
const COMMA = 0x2c;
const CLOSE = 0x5d;

function matchesEvent(e: AuditLogEvent, terms: AuditQueryTerm[]): boolean {
  return terms.every((t) =>
    t.key === 'author' ? e.author.user === t.value : t.key === 'ip' ? e.ip === t.value : e.type === t.value,
  );
}

/** Indices of matching seeded events, newest first, at most `limit`; null when a term can never match. */
function seededMatches(h: AuditHistory, terms: AuditQueryTerm[], limit: number): Uint32Array | null {
  let author = -1;
  let ip = -1;
  let type = -1;
  for (const t of terms) {
    const idx =
      t.key === 'author'
        ? h.authorNames.indexOf(t.value)
        : t.key === 'ip'
          ? h.ips.indexOf(t.value)
          : AUDIT_EVENT_TYPES.indexOf(t.value);
    if (idx < 0) return null;
    // Two different values for one key can never both match.
    const prev = t.key === 'author' ? author : t.key === 'ip' ? ip : type;
    if (prev >= 0 && prev !== idx) return null;
    if (t.key === 'author') author = idx;
    else if (t.key === 'ip') ip = idx;
    else type = idx;
  }
  const out = new Uint32Array(Math.min(limit, h.count));
  let n = 0;
  for (let i = 0; i < h.count && n < out.length; i++) {
    if ((author < 0 || h.author[i] === author) && (ip < 0 || h.ip[i] === ip) && (type < 0 || h.type[i] === type))
      out[n++] = i;
  }
  return out.subarray(0, n);
}

function assemble(h: AuditHistory, extraJson: string[], picked: Uint32Array | null): Uint8Array<ArrayBuffer> {
  const extra = extraJson.map((s) => Buffer.from(s));
  let size = 2 + extra.reduce((s, b) => s + b.byteLength + 1, 0);
  const n = picked?.length ?? 0;
  for (let k = 0; k < n; k++) size += h.offsets[picked![k]! + 1]! - h.offsets[picked![k]!]!;
  const body = new Uint8Array(Math.max(2, size - (extra.length + n > 0 ? 1 : 0)));
  let at = 0;
  body[at++] = OPEN;
  const put = (bytes: Uint8Array) => {
    if (at > 1) body[at++] = COMMA;
    body.set(bytes, at);
    at += bytes.byteLength;
  };
  for (const b of extra) put(b);
  // Consecutive indices are copied as one run (the unfiltered export is a single copy).
  for (let k = 0; k < n;) {
    let end = k + 1;
    while (end < n && picked![end] === picked![end - 1]! + 1) end++;
    put(h.bytes.subarray(h.offsets[picked![k]!]!, h.offsets[picked![end - 1]! + 1]! - 1));
    k = end;
  }
  body[at++] = CLOSE;
  return body;
}

// Shared by every hub in the process: the history is deterministic and immutable.
const histories = new Map<string, AuditHistory>();

export function createAuditLog(): AuditLog {
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
      const key = `${org}\n${terms
        .map((t) => `${t.key}:${t.value}`)
        .sort()
        .join(' ')}\n${extra.length}:${extra[0]?._id ?? ''}`;
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const extraJson = extra
        .filter((e) => matchesEvent(e, terms))
        .slice(0, AUDIT_EXPORT_LIMIT)
        .map((e) => JSON.stringify(e));
      const h = history(org);
      const body = assemble(h, extraJson, seededMatches(h, terms, AUDIT_EXPORT_LIMIT - extraJson.length));
      cache.set(key, body);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return body;
    },
  };
}
