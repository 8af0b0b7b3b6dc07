import type { OrgPlan } from '../../hub/schemas/index.ts';
import { forbidden, notFound } from '../http/http-error.ts';
import type { HubState } from '../store/state-schema.ts';
import { findOrg, type OrgRole, type SeedOrg } from '../seed/users.ts';
import type { AuthInfo } from './authenticate.ts';

export interface OrgGate {
  /** Plans allowed to use the endpoint. */
  plans?: readonly OrgPlan[];
  /** Names the plan needed, e.g. "Resource groups need a Team plan or higher". */
  planMessage?: string;
  admin?: boolean;
}

export const TEAM_OR_HIGHER: readonly OrgPlan[] = ['team', 'enterprise', 'enterprise_plus'];
export const ENTERPRISE: readonly OrgPlan[] = ['enterprise', 'enterprise_plus'];

/** The org, and the caller's role in it. */
export type OrgAccess = SeedOrg & { role: OrgRole };

/**
 * Org endpoints: unknown org 404; a known org the caller is not a member of 403 (its existence is
 * public on the hub, so hiding it gains nothing); then revocation, token scope, plan, role.
 */
export function checkOrgAccess(
  state: HubState,
  auth: AuthInfo,
  name: string,
  write: boolean,
  gate: OrgGate = {},
): OrgAccess {
  const org = findOrg(name);
  if (!org) throw notFound(`organization "${name}" not found`);
  const role = org.members[auth.user.name];
  if (!role) throw forbidden(`you are not a member of organization "${name}"`);
  if (state.revokedTokens[name]?.includes(auth.token.id))
    throw forbidden(`this access token has been revoked for organization "${name}"`);
  if (write && auth.token.role === 'fineGrained')
    throw forbidden(`this fine-grained token has no write permission on organization "${name}"`);
  if (gate.plans && !gate.plans.includes(org.plan)) {
    throw forbidden(
      `${gate.planMessage ?? 'this organization plan does not include this feature'} (organization "${name}" is on the ${org.plan} plan)`,
    );
  }
  if (gate.admin && role !== 'admin')
    throw forbidden(`this action needs the admin role in organization "${name}" (your role: ${role})`);
  return { ...org, role };
}
