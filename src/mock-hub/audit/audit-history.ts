import { AUDIT_EVENT_TYPES, type AuditLogEvent } from '../../hub/schemas/index.ts';
import { createPrng, seedOf, SEED_EPOCH, stableId } from '../seed/prng.ts';
import { ORGS } from '../seed/users.ts';

/** Seeded audit events per org. Not persisted: regenerated identically on every start. */
export const AUDIT_EVENT_COUNTS: Record<string, number> = { acme: 120_000, teamco: 2_500, freeorg: 300 };

/**
 * An org's seeded history, newest first, kept as pre-serialized JSON plus compact filter columns
 * so that an export is a filter over typed arrays and a string join, never 100k stringify calls.
 */
export interface AuditHistory {
  json: string[];
  type: Uint8Array;
  author: Uint16Array;
  ip: Uint16Array;
  authorNames: string[];
  ips: string[];
}

const PLACES = [
  { formatted: 'Paris, France', country: 'FR', city: 'Paris' },
  { formatted: 'New York, United States', country: 'US', city: 'New York' },
  { formatted: 'Berlin, Germany', country: 'DE', city: 'Berlin' },
  { formatted: 'Tokyo, Japan', country: 'JP', city: 'Tokyo' },
  { formatted: 'São Paulo, Brazil', country: 'BR', city: 'São Paulo' },
  { formatted: 'Unknown location' },
];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', 'huggingface_hub/0.30.0; python/3.12', 'Mozilla/5.0 (Macintosh) Safari/605.1.15', 'curl/8.5.0'];

export function generateAuditHistory(orgName: string): AuditHistory {
  const count = AUDIT_EVENT_COUNTS[orgName] ?? 0;
  const org = ORGS.find((o) => o.name === orgName);
  const prng = createPrng(seedOf(`audit:${orgName}`));
  const authorNames = [...Object.keys(org?.members ?? {}), ...Array.from({ length: 37 }, (_, i) => `${orgName}-member-${String(i + 1).padStart(2, '0')}`), 'system'];
  const authorIds = authorNames.map((n) => stableId(n === 'alice' || n === 'bob' || n === 'carol' ? `user:${n}` : `audit-author:${n}`));
  const ips = Array.from({ length: 240 }, (_, i) => (i % 5 === 4 ? `2001:db8::${(i * 7).toString(16)}` : `${10 + (i % 3) * 50}.${(i * 37) % 256}.${(i * 11) % 256}.${1 + (i % 250)}`));
  const prefix = stableId(`audit-prefix:${orgName}`).slice(0, 8);
  const h: AuditHistory = {
    json: new Array<string>(count),
    type: new Uint8Array(count),
    author: new Uint16Array(count),
    ip: new Uint16Array(count),
    authorNames,
    ips,
  };
  let t = SEED_EPOCH;
  for (let i = 0; i < count; i++) {
    t -= 1_000 + Math.floor(prng.next() * 59_000);
    const typeIdx = Math.floor(prng.next() * AUDIT_EVENT_TYPES.length);
    // The first members (alice, bob) act most often so author filters return plenty.
    const authorIdx = prng.chance(0.3) ? Math.floor(prng.next() * Math.min(2, authorNames.length)) : Math.floor(prng.next() * authorNames.length);
    const ipIdx = Math.floor(prng.next() * ips.length);
    const type = AUDIT_EVENT_TYPES[typeIdx]!;
    const name = authorNames[authorIdx]!;
    const isSystem = name === 'system';
    const event: AuditLogEvent = {
      _id: prefix + i.toString(16).padStart(16, '0'),
      createdAt: new Date(t).toISOString(),
      type,
      message: `${name} ${type.replace(/[._]/g, ' ')} in ${orgName}`,
      author: { _id: authorIds[authorIdx]!, user: name, avatarUrl: `https://cdn.example.test/avatars/${name}.svg`, type: isSystem ? 'system' : 'user' },
    };
    if (type.startsWith('repo.') || type.startsWith('spaces.')) event.data = { repo: `${orgName}/repo-${i % 97}` };
    if (!isSystem) {
      event.ip = ips[ipIdx]!;
      event.location = PLACES[ipIdx % PLACES.length]!;
      event.userAgent = AGENTS[i % AGENTS.length]!;
      if (i % 3 === 0) event.token = { type: 'access_token', id: stableId(`audit-token:${name}`), role: i % 2 ? 'write' : 'fineGrained', last4: prefix.slice(0, 4), deleted: i % 50 === 0 };
    }
    if (type === 'oauth.token') event.oauth = { clientId: 'oauth-client-0001', name: 'Example App' };
    h.json[i] = JSON.stringify(event);
    h.type[i] = typeIdx;
    h.author[i] = authorIdx;
    h.ip[i] = isSystem ? 0xffff : ipIdx;
  }
  return h;
}
