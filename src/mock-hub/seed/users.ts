import type { OrgPlan, TokenRole } from '../../hub/schemas/index.ts';
import { stableId } from './prng.ts';

export interface SeedUser {
  id: string;
  name: string;
  fullname: string;
  email: string;
  avatarUrl: string;
  isPro: boolean;
}

export type OrgRole = 'admin' | 'write' | 'contributor' | 'read';

export interface SeedOrg {
  id: string;
  name: string;
  fullname: string;
  plan: OrgPlan;
  avatarUrl: string;
  members: Record<string, OrgRole>;
}

export interface DemoToken {
  /** Stable id under which revocations are stored (the raw token never reaches disk). */
  id: string;
  token: string;
  user: string;
  role: TokenRole;
  displayName: string;
}

const avatar = (name: string) => `https://cdn.example.test/avatars/${name}.svg`;

function user(name: string, fullname: string, isPro: boolean): SeedUser {
  return {
    id: stableId(`user:${name}`),
    name,
    fullname,
    email: `${name}@example.test`,
    avatarUrl: avatar(name),
    isPro,
  };
}

export const USERS: readonly SeedUser[] = [
  user('alice', 'Alice Liddell', true),
  user('bob', 'Bob Builder', false),
  user('carol', 'Carol Danvers', false),
];

export const ORGS: readonly SeedOrg[] = [
  {
    id: stableId('org:acme'),
    name: 'acme',
    fullname: 'ACME Corp',
    plan: 'enterprise',
    avatarUrl: avatar('acme'),
    members: { alice: 'admin', bob: 'read' },
  },
  {
    id: stableId('org:teamco'),
    name: 'teamco',
    fullname: 'TeamCo',
    plan: 'team',
    avatarUrl: avatar('teamco'),
    members: { alice: 'admin', carol: 'write' },
  },
  {
    id: stableId('org:freeorg'),
    name: 'freeorg',
    fullname: 'Free Org',
    plan: 'free',
    avatarUrl: avatar('freeorg'),
    members: { alice: 'admin' },
  },
];

/**
 * The demo tokens by name: the one place the test harnesses, e2e, bench and the README take them
 * from (the README's token table is checked against it).
 */
export const TOKENS = {
  aliceWrite: 'hf_alice_write',
  aliceRead: 'hf_alice_read',
  bobWrite: 'hf_bob_write',
  carolFine: 'hf_carol_fine',
} as const;

/**
 * Demo tokens. carol's fine-grained token may read everything carol can see and write her own
 * user settings (notifications, watch, webhooks, paper claims), but has no org write scope.
 */
export const DEMO_TOKENS: readonly DemoToken[] = [
  {
    id: stableId('token:alice_write'),
    token: TOKENS.aliceWrite,
    user: 'alice',
    role: 'write',
    displayName: 'alice-write',
  },
  { id: stableId('token:alice_read'), token: TOKENS.aliceRead, user: 'alice', role: 'read', displayName: 'alice-read' },
  { id: stableId('token:bob_write'), token: TOKENS.bobWrite, user: 'bob', role: 'write', displayName: 'bob-write' },
  {
    id: stableId('token:carol_fine'),
    token: TOKENS.carolFine,
    user: 'carol',
    role: 'fineGrained',
    displayName: 'carol-fine-grained',
  },
];

export function findUser(name: string): SeedUser | undefined {
  return USERS.find((u) => u.name === name);
}
export function findUserById(id: string): SeedUser | undefined {
  const lower = id.toLowerCase();
  return USERS.find((u) => u.id === lower);
}
export function findOrg(name: string): SeedOrg | undefined {
  return ORGS.find((o) => o.name === name);
}
export function findToken(token: string): DemoToken | undefined {
  return DEMO_TOKENS.find((t) => t.token === token);
}
export function orgsOf(userName: string): SeedOrg[] {
  return ORGS.filter((o) => userName in o.members);
}
