import type { ResourceGroup } from '../../hub/schemas/index.ts';
import { stableId } from './prng.ts';
import { findUser } from './users.ts';

export const SEED_RESOURCE_GROUP_IDS = {
  acmeResearch: stableId('rg:acme:research'),
  acmeProduction: stableId('rg:acme:production'),
  teamcoCore: stableId('rg:teamco:core'),
} as const;

function member(name: string, role: string) {
  const u = findUser(name)!;
  return {
    type: 'user' as const,
    _id: u.id,
    fullname: u.fullname,
    name: u.name,
    avatarUrl: u.avatarUrl,
    role,
    addedBy: 'alice',
  };
}

export function seedResourceGroups(
  repoNames: (owner: string) => { type: ResourceGroup['repos'][number]['type']; name: string; private: boolean }[],
): Record<string, ResourceGroup[]> {
  const repos = (owner: string, from: number, n: number) =>
    repoNames(owner)
      .slice(from, from + n)
      .map((r) => ({ ...r, addedBy: 'alice' }));
  const acmeA = repos('acme', 0, 4);
  const acmeB = repos('acme', 4, 3);
  const team = repos('teamco', 0, 2);
  return {
    acme: [
      {
        id: SEED_RESOURCE_GROUP_IDS.acmeResearch,
        name: 'Research',
        description: 'Models and datasets of the research team',
        autoJoin: { enabled: false },
        users: [member('alice', 'admin'), member('bob', 'read')],
        resources: [
          ...acmeA,
          {
            type: 'collection',
            id: stableId('collection:acme:papers'),
            slug: 'acme/papers-0123',
            title: 'Papers',
            private: false,
            addedBy: 'alice',
          },
        ],
        repos: acmeA,
      },
      {
        id: SEED_RESOURCE_GROUP_IDS.acmeProduction,
        name: 'Production',
        description: null,
        autoJoin: { enabled: true, role: 'read', scope: 'read_plus' },
        users: [member('alice', 'admin')],
        resources: acmeB,
        repos: acmeB,
      },
    ],
    teamco: [
      {
        id: SEED_RESOURCE_GROUP_IDS.teamcoCore,
        name: 'Core',
        description: 'Everything that ships',
        users: [member('alice', 'admin'), member('carol', 'write')],
        resources: team,
        repos: team,
      },
    ],
  };
}
