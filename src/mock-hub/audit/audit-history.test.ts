import { describe, expect, it } from 'vitest';
import { AUDIT_EVENT_TYPES, AuditLogEvent } from '../../hub/schemas/index.ts';
import { AUDIT_EVENT_COUNTS, NO_IP, auditEventJson, generateAuditHistory } from './audit-history.ts';

describe('seeded audit history', () => {
  // The export route sends these bytes without re-validating them; this is where they are checked.
  it('every acme event is valid JSON matching AuditLogEvent, newest first, filter columns agree', () => {
    const h = generateAuditHistory('acme');
    expect(h.count).toBe(AUDIT_EVENT_COUNTS.acme);
    expect(AUDIT_EVENT_COUNTS.acme).toBeGreaterThanOrEqual(120_000);
    const all = JSON.parse(`[${h.bytes.toString('utf8', 0, h.offsets[h.count]! - 1)}]`) as unknown[];
    expect(all).toHaveLength(h.count);
    const ids = new Set<string>();
    let prev = '9999';
    all.forEach((raw, i) => {
      const e = AuditLogEvent.parse(raw);
      ids.add(e._id);
      expect(e.createdAt <= prev).toBe(true);
      prev = e.createdAt;
      if (i % 997 === 0) {
        expect(e.type).toBe(AUDIT_EVENT_TYPES[h.type[i]!]);
        expect(e.author.user).toBe(h.authorNames[h.author[i]!]);
        expect(e.ip).toBe(h.ip[i] === NO_IP ? undefined : h.ips[h.ip[i]!]);
      }
    });
    expect(ids.size).toBe(h.count);
    expect(new Set(h.type).size).toBeGreaterThan(100);
    expect(new Set(h.author).size).toBeGreaterThan(30);
    expect(new Set(h.ip).size).toBeGreaterThan(200);
  }, 60_000);

  it('is deterministic', () => {
    const a = generateAuditHistory('teamco');
    const b = generateAuditHistory('teamco');
    expect(auditEventJson(a, 123)).toBe(auditEventJson(b, 123));
    expect(a.bytes.equals(b.bytes)).toBe(true);
  });
});
