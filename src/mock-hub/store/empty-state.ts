import type { HubState } from './state-schema.ts';

export function emptyState(): HubState {
  return {
    version: 1,
    notifications: {},
    notificationSettings: {},
    watch: {},
    mcp: {},
    papers: [],
    repos: [],
    webhooks: [],
    webhookLogs: {},
    jobs: {},
    resourceGroups: {},
    revokedTokens: {},
    auditExtra: {},
  };
}
