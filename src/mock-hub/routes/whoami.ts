import { Whoami } from '../../hub/schemas/index.ts';
import { defineRoute } from '../http/route.ts';
import { orgsOf } from '../seed/users.ts';

/**
 * Fine-grained permissions of carol's token, reported like the real hub: write on her own user
 * settings and repos, read on the orgs she belongs to (no org write).
 */
function fineGrained(user: string) {
  return {
    canReadGatedRepos: false,
    global: ['discussion.write', 'post.write'],
    scoped: [
      {
        entity: { type: 'user', name: user },
        permissions: [
          'repo.content.read',
          'repo.write',
          'user.webhooks.read',
          'user.webhooks.write',
          'user.notifications.write',
        ],
      },
      ...orgsOf(user).map((o) => ({
        entity: { type: 'org', name: o.name },
        permissions: ['repo.content.read', 'org.read'],
      })),
    ],
  };
}

// Real hub: huggingface_hub hf_api.py HfApi.whoami (_inner_whoami) and huggingface.js packages/hub/src/lib/who-am-i.ts whoAmI.
const whoami = defineRoute({
  method: 'get',
  path: '/api/whoami-v2',
  tag: 'auth',
  auth: 'user',
  extension: {
    realHub:
      'huggingface_hub src/huggingface_hub/hf_api.py HfApi.whoami; huggingface.js packages/hub/src/lib/who-am-i.ts whoAmI',
  },
  summary: 'The token’s user, orgs (with role and plan) and token role, as the real hub answers',
  response: Whoami,
  handler: ({ auth }) => {
    const { user, token } = auth;
    return {
      type: 'user',
      id: user.id,
      name: user.name,
      fullname: user.fullname,
      email: user.email,
      emailVerified: true,
      canPay: user.isPro,
      isPro: user.isPro,
      periodEnd: null,
      avatarUrl: user.avatarUrl,
      orgs: orgsOf(user.name).map((o) => ({
        type: 'org' as const,
        id: o.id,
        name: o.name,
        fullname: o.fullname,
        email: null,
        canPay: o.plan !== 'free',
        periodEnd: null,
        avatarUrl: o.avatarUrl,
        roleInOrg: o.members[user.name],
        plan: o.plan,
        isEnterprise: o.plan === 'enterprise' || o.plan === 'enterprise_plus',
      })),
      auth: {
        type: 'access_token',
        accessToken: {
          displayName: token.displayName,
          role: token.role,
          createdAt: '2026-01-01T00:00:00.000Z',
          ...(token.role === 'fineGrained' ? { fineGrained: fineGrained(user.name) } : {}),
        },
      },
    };
  },
});

export const whoamiRoutes = [whoami];
