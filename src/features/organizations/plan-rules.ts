import type { WhoamiOrg } from '../../hub/schemas/index.ts';

const RANK: Record<string, number> = { free: 0, team: 1, enterprise: 2, enterprise_plus: 3 };
const NAMES: Record<string, string> = {
  free: 'Free',
  team: 'Team',
  enterprise: 'Enterprise',
  enterprise_plus: 'Enterprise Plus',
};

export const planName = (plan: string | undefined) => NAMES[plan ?? 'free'] ?? plan ?? 'Free';

/** Unknown plans are given the benefit of the doubt: the hub has the last word (403). */
export function planAtLeast(plan: string | undefined, needed: 'team' | 'enterprise'): boolean {
  const rank = RANK[plan ?? 'free'];
  return rank === undefined ? true : rank >= RANK[needed]!;
}

export type Gate = { allowed: true } | { allowed: false; reason: string };

export function resourceGroupsGate(org: string, info: WhoamiOrg | undefined): Gate {
  if (!info || planAtLeast(info.plan, 'team')) return { allowed: true };
  return {
    allowed: false,
    reason: `Resource groups need the Team plan or higher; ${org} is on ${planName(info.plan)}.`,
  };
}

/** Revoking a member token: Enterprise organizations, admins only. */
export function tokenRevokeGate(org: string, info: WhoamiOrg | undefined): Gate {
  if (!info)
    return { allowed: false, reason: `You are not a member of ${org}, so you cannot revoke its members' tokens.` };
  if (!planAtLeast(info.plan, 'enterprise')) {
    return {
      allowed: false,
      reason: `Revoking member tokens needs the Enterprise plan; ${org} is on ${planName(info.plan)}.`,
    };
  }
  if (info.roleInOrg !== 'admin') {
    return {
      allowed: false,
      reason: `Only organization admins can revoke member tokens; your role in ${org} is ${info.roleInOrg ?? 'member'}.`,
    };
  }
  return { allowed: true };
}

/** Creating, renaming and deleting resource groups: organization admins. */
export function manageGroupsGate(org: string, info: WhoamiOrg | undefined): Gate {
  if (info?.roleInOrg === 'admin') return { allowed: true };
  return {
    allowed: false,
    reason: `Only organization admins can create, change or delete resource groups; your role in ${org} is ${info?.roleInOrg ?? 'none'}.`,
  };
}
