import { z } from 'zod';

export const ORG_PLANS = ['free', 'team', 'enterprise', 'enterprise_plus'] as const;
export const OrgPlan = z.enum(ORG_PLANS);
export type OrgPlan = z.infer<typeof OrgPlan>;
export const TokenRole = z.enum(['read', 'write', 'fineGrained']);
export type TokenRole = z.infer<typeof TokenRole>;

/**
 * `GET /api/whoami-v2` as the real hub answers it (subset). Loose objects: the real hub adds
 * fields over time and this endpoint is outside the spec.
 */
/** What the user and each of their orgs have alike. */
const accountFields = {
  id: z.string(),
  name: z.string(),
  fullname: z.string(),
  avatarUrl: z.string(),
};

export const WhoamiOrg = z.looseObject({
  type: z.literal('org'),
  ...accountFields,
  roleInOrg: z.string().optional(),
  plan: z.string().optional(),
  isEnterprise: z.boolean().optional(),
});
export type WhoamiOrg = z.infer<typeof WhoamiOrg>;

export const Whoami = z.looseObject({
  type: z.literal('user'),
  ...accountFields,
  email: z.string().optional(),
  isPro: z.boolean().optional(),
  orgs: z.array(WhoamiOrg),
  auth: z.looseObject({
    type: z.string(),
    accessToken: z.looseObject({ displayName: z.string(), role: TokenRole }).optional(),
  }),
});
export type Whoami = z.infer<typeof Whoami>;
