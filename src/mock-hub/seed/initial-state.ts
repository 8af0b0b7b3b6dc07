import type { HubState } from '../store/state-schema.ts';
import { seedNotifications } from './notifications.ts';
import { seedPapers } from './papers.ts';
import { seedRepositories } from './repositories.ts';
import { seedResourceGroups } from './resource-groups.ts';
import { seedMcp, seedNotificationSettings, seedWatch } from './settings.ts';
import { USERS } from './users.ts';
import { seedJobs, seedWebhooks } from './webhooks.ts';

/** The whole seeded state (audit history excepted: see audit/audit-history.ts). Deterministic. */
export function initialState(): HubState {
  const repos = seedRepositories();
  const perUser = <T>(f: (u: string) => T) => Object.fromEntries(USERS.map((u) => [u.name, f(u.name)]));
  return {
    version: 1,
    notifications: seedNotifications(),
    notificationSettings: perUser(() => seedNotificationSettings()),
    watch: perUser(seedWatch),
    mcp: perUser(seedMcp),
    papers: seedPapers(),
    repos,
    webhooks: seedWebhooks(),
    webhookLogs: {},
    jobs: seedJobs(),
    resourceGroups: seedResourceGroups((owner) =>
      repos
        .filter((r) => r.owner === owner)
        .map((r) => ({ type: r.type, name: r.id, private: r.visibility !== 'public' })),
    ),
    revokedTokens: {},
    auditExtra: {},
  };
}
