import { AUDIT_EVENT_TYPES } from '../../hub/schemas/index.ts';
import { createPrng, seedOf, SEED_EPOCH, stableId } from '../seed/prng.ts';
import { ORGS } from '../seed/users.ts';

/** Seeded audit events per org. Not persisted: regenerated identically on every start. */
export const AUDIT_EVENT_COUNTS: Record<string, number> = { acme: 120_000, teamco: 2_500, freeorg: 300 };

/**
 * An org's seeded history, newest first, serialized once into one buffer (events joined by
 * commas, event i at bytes offsets[i] .. offsets[i+1]-1) plus compact filter columns, so an export
 * is a scan over typed arrays and a few memcpy calls instead of 100k stringify calls.
 */
export interface AuditHistory {
  count: number;
  bytes: Buffer;
  offsets: Uint32Array;
  type: Uint8Array;
  author: Uint16Array;
  /** Index into `ips`, or NO_IP for system events. */
  ip: Uint16Array;
  authorNames: string[];
  ips: string[];
}

export const NO_IP = 0xffff;

const PLACES = [
  { formatted: 'Paris, France', country: 'FR', city: 'Paris' },
  { formatted: 'New York, United States', country: 'US', city: 'New York' },
  { formatted: 'Berlin, Germany', country: 'DE', city: 'Berlin' },
  { formatted: 'Tokyo, Japan', country: 'JP', city: 'Tokyo' },
  { formatted: 'São Paulo, Brazil', country: 'BR', city: 'São Paulo' },
  { formatted: 'Unknown location' },
];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
  'huggingface_hub/0.30.0; python/3.12',
  'Mozilla/5.0 (Macintosh) Safari/605.1.15',
  'curl/8.5.0',
];

/** Every event is assembled from fragments serialized once (authors, ips, types); see the test for schema validation. */
export function generateAuditHistory(orgName: string): AuditHistory {
  const count = AUDIT_EVENT_COUNTS[orgName] ?? 0;
  const org = ORGS.find((o) => o.name === orgName);
  const prng = createPrng(seedOf(`audit:${orgName}`));
  const authorNames = [
    ...Object.keys(org?.members ?? {}),
    ...Array.from({ length: 37 }, (_, i) => `${orgName}-member-${String(i + 1).padStart(2, '0')}`),
    'system',
  ];
  const ips = Array.from({ length: 240 }, (_, i) =>
    i % 5 === 4
      ? `2001:db8::${(i * 7).toString(16)}`
      : `${10 + (i % 3) * 50}.${(i * 37) % 256}.${(i * 11) % 256}.${1 + (i % 250)}`,
  );
  const prefix = stableId(`audit-prefix:${orgName}`).slice(0, 8);

  const authorJson = authorNames.map((name) =>
    JSON.stringify({
      _id: stableId(['alice', 'bob', 'carol'].includes(name) ? `user:${name}` : `audit-author:${name}`),
      user: name,
      avatarUrl: `/avatars/${name}.svg`,
      type: name === 'system' ? 'system' : 'user',
    }),
  );
  const tokenJson = authorNames.map((name) =>
    [false, true].map((deleted) =>
      JSON.stringify({
        type: 'access_token',
        id: stableId(`audit-token:${name}`),
        role: 'write',
        last4: prefix.slice(0, 4),
        deleted,
      }),
    ),
  );
  const ipJson = ips.map((ip, i) => `${JSON.stringify(ip)},"location":${JSON.stringify(PLACES[i % PLACES.length])}`);
  const agentJson = AGENTS.map((a) => JSON.stringify(a));
  const typeWords = AUDIT_EVENT_TYPES.map((t) => t.replace(/[._]/g, ' '));

  const parts = new Array<string>(count);
  const h: Omit<AuditHistory, 'bytes'> = {
    count,
    offsets: new Uint32Array(count + 1),
    type: new Uint8Array(count),
    author: new Uint16Array(count),
    ip: new Uint16Array(count),
    authorNames,
    ips,
  };
  let t = SEED_EPOCH;
  let total = 0;
  for (let i = 0; i < count; i++) {
    t -= 1_000 + Math.floor(prng.next() * 59_000);
    const typeIdx = Math.floor(prng.next() * AUDIT_EVENT_TYPES.length);
    // The first members (alice, bob) act most often so author filters return plenty.
    const authorIdx = prng.chance(0.3)
      ? Math.floor(prng.next() * Math.min(2, authorNames.length))
      : Math.floor(prng.next() * authorNames.length);
    const ipIdx = Math.floor(prng.next() * ips.length);
    const type = AUDIT_EVENT_TYPES[typeIdx]!;
    const name = authorNames[authorIdx]!;
    const isSystem = name === 'system';
    let json = `{"_id":"${prefix}${i.toString(16).padStart(16, '0')}","createdAt":"${new Date(t).toISOString()}","type":"${type}"`;
    if (type.startsWith('repo.') || type.startsWith('spaces.')) json += `,"data":{"repo":"${orgName}/repo-${i % 97}"}`;
    json += `,"message":"${name} ${typeWords[typeIdx]} in ${orgName}"`;
    if (!isSystem)
      json += `,"ip":${ipJson[ipIdx]}${i % 4 === 0 ? `,"userAgent":${agentJson[(i >> 2) % AGENTS.length]}` : ''}`;
    json += `,"author":${authorJson[authorIdx]}`;
    if (!isSystem && i % 3 === 0) json += `,"token":${tokenJson[authorIdx]![i % 50 === 0 ? 1 : 0]}`;
    if (type === 'oauth.token') json += ',"oauth":{"clientId":"oauth-client-0001","name":"Example App"}';
    json += '}';
    parts[i] = json;
    h.offsets[i] = total;
    total += Buffer.byteLength(json) + 1;
    h.type[i] = typeIdx;
    h.author[i] = authorIdx;
    h.ip[i] = isSystem ? NO_IP : ipIdx;
  }
  h.offsets[count] = total;
  const bytes = Buffer.allocUnsafe(total);
  for (let i = 0; i < count; i++) {
    bytes.write(parts[i]!, h.offsets[i]!);
    bytes[h.offsets[i + 1]! - 1] = 0x2c;
  }
  return { ...h, bytes };
}

/** Event i as a JSON string (tests, debugging). */
export function auditEventJson(h: AuditHistory, i: number): string {
  return h.bytes.toString('utf8', h.offsets[i]!, h.offsets[i + 1]! - 1);
}
