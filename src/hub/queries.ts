import { queryOptions } from '@tanstack/react-query';
import type { HubClient } from './client.ts';
import { HubApiError, HubNetworkError, HubRequestError, HubSchemaError, isEndpointNotExposed } from './errors.ts';
import type { AuditLogQuery, JobListQuery, NotificationFilters, RepositoryUsageQuery } from './schemas/index.ts';

export type RepositoryUsageParams = RepositoryUsageQuery & { org?: string };

/**
 * Hierarchical keys: invalidating a prefix (`hubKeys.webhooks.all`) refreshes everything below
 * it (list, details, logs). Everything lives under `hubKeys.all`, so a token change can drop it all.
 */
export const hubKeys = {
  all: ['hub'] as const,
  whoami: () => [...hubKeys.all, 'whoami'] as const,
  notifications: {
    all: ['hub', 'notifications'] as const,
    list: (filters: NotificationFilters = {}) => [...hubKeys.notifications.all, 'list', filters] as const,
  },
  settings: {
    all: ['hub', 'settings'] as const,
    notifications: () => [...hubKeys.settings.all, 'notifications'] as const,
    watch: () => [...hubKeys.settings.all, 'watch'] as const,
    mcp: () => [...hubKeys.settings.all, 'mcp'] as const,
  },
  papers: {
    all: ['hub', 'papers'] as const,
    detail: (paperId: string) => [...hubKeys.papers.all, paperId] as const,
  },
  repositories: {
    all: ['hub', 'repositories'] as const,
    user: (query: RepositoryUsageQuery = {}) => [...hubKeys.repositories.all, 'user', query] as const,
  },
  webhooks: {
    all: ['hub', 'webhooks'] as const,
    list: () => [...hubKeys.webhooks.all, 'list'] as const,
    detail: (webhookId: string) => [...hubKeys.webhooks.all, 'detail', webhookId] as const,
    logs: (webhookId: string) => [...hubKeys.webhooks.detail(webhookId), 'logs'] as const,
    delivery: (webhookId: string, logId: string) => [...hubKeys.webhooks.logs(webhookId), logId] as const,
  },
  jobs: {
    all: ['hub', 'jobs'] as const,
    /** Everything of one namespace: its lists (any filters) and its jobs. */
    namespace: (namespace: string) => [...hubKeys.jobs.all, namespace] as const,
    list: (namespace: string, query: JobListQuery = {}) =>
      [...hubKeys.jobs.namespace(namespace), 'list', query] as const,
    detail: (namespace: string, jobId: string) => [...hubKeys.jobs.namespace(namespace), 'detail', jobId] as const,
  },
  org: (org: string) => {
    const all = ['hub', 'org', org] as const;
    return {
      all,
      repositories: (query: RepositoryUsageQuery = {}) => [...all, 'repositories', query] as const,
      auditLog: (query: AuditLogQuery = {}) => [...all, 'audit-log', query] as const,
      resourceGroups: () => [...all, 'resource-groups'] as const,
      resourceGroup: (resourceGroupId: string) => [...all, 'resource-groups', resourceGroupId] as const,
    };
  },
};

/**
 * `enabled` of the reads only the mock hub has: once the hub said it does not expose one, the
 * query stops (no refetch on invalidation or focus), so the page keeps its "not exposed" state
 * instead of flashing back to loading after each write.
 */
export const whileExposed = (query: { state: { error: unknown } }): boolean => !isEndpointNotExposed(query.state.error);

export const whoamiQuery = (client: HubClient) =>
  queryOptions({ queryKey: hubKeys.whoami(), queryFn: ({ signal }) => client.whoami({ signal }) });

export const notificationsQuery = (client: HubClient, filters: NotificationFilters = {}) =>
  queryOptions({
    queryKey: hubKeys.notifications.list(filters),
    queryFn: ({ signal }) => client.listNotifications(filters, { signal }),
  });

/** How often the unread badge and the inbox's "new notifications" check ask the hub while the page is visible. */
export const NOTIFICATIONS_POLL_MS = 60_000;

/**
 * The first page of a view, kept fresh: refetched every minute while the page is visible (the
 * interval pauses in a background tab) and whenever the window regains focus. The unread badge
 * and the inbox's "N new notifications" banner read it; the rows people read never move by it.
 */
export const liveNotificationsQuery = (client: HubClient, filters: Omit<NotificationFilters, 'p'> = {}) =>
  queryOptions({
    ...notificationsQuery(client, filters),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: 'always',
  });

export const notificationSettingsQuery = (client: HubClient) =>
  queryOptions({
    queryKey: hubKeys.settings.notifications(),
    queryFn: ({ signal }) => client.getNotificationSettings({ signal }),
    enabled: whileExposed,
  });

export const watchListQuery = (client: HubClient) =>
  queryOptions({
    queryKey: hubKeys.settings.watch(),
    queryFn: ({ signal }) => client.getWatchList({ signal }),
    enabled: whileExposed,
  });

export const mcpSettingsQuery = (client: HubClient) =>
  queryOptions({ queryKey: hubKeys.settings.mcp(), queryFn: ({ signal }) => client.getMcpSettings({ signal }) });

export const paperQuery = (client: HubClient, paperId: string) =>
  queryOptions({
    queryKey: hubKeys.papers.detail(paperId),
    queryFn: ({ signal }) => client.getPaper(paperId, { signal }),
  });

/** The signed-in user's repositories, or an organization's when `org` is given. */
export const repositoryUsageQuery = (client: HubClient, { org, ...query }: RepositoryUsageParams = {}) =>
  queryOptions({
    queryKey: org ? hubKeys.org(org).repositories(query) : hubKeys.repositories.user(query),
    queryFn: ({ signal }) =>
      org ? client.listOrgRepositoryUsage(org, query, { signal }) : client.listRepositoryUsage(query, { signal }),
  });

export const webhooksQuery = (client: HubClient) =>
  queryOptions({ queryKey: hubKeys.webhooks.list(), queryFn: ({ signal }) => client.listWebhooks({ signal }) });

export const webhookQuery = (client: HubClient, webhookId: string) =>
  queryOptions({
    queryKey: hubKeys.webhooks.detail(webhookId),
    queryFn: ({ signal }) => client.getWebhook(webhookId, { signal }),
  });

export const webhookLogsQuery = (client: HubClient, webhookId: string) =>
  queryOptions({
    queryKey: hubKeys.webhooks.logs(webhookId),
    queryFn: ({ signal }) => client.listWebhookLogs(webhookId, { signal }),
    enabled: whileExposed,
  });

export const webhookDeliveryQuery = (client: HubClient, webhookId: string, logId: string) =>
  queryOptions({
    queryKey: hubKeys.webhooks.delivery(webhookId, logId),
    queryFn: ({ signal }) => client.getWebhookDelivery(webhookId, logId, { signal }),
    enabled: whileExposed,
  });

export const resourceGroupsQuery = (client: HubClient, org: string) =>
  queryOptions({
    queryKey: hubKeys.org(org).resourceGroups(),
    queryFn: ({ signal }) => client.listResourceGroups(org, { signal }),
    enabled: whileExposed,
  });

export const resourceGroupQuery = (client: HubClient, org: string, resourceGroupId: string) =>
  queryOptions({
    queryKey: hubKeys.org(org).resourceGroup(resourceGroupId),
    queryFn: ({ signal }) => client.getResourceGroup(org, resourceGroupId, { signal }),
  });

export const jobsQuery = (client: HubClient, namespace: string, query: JobListQuery = {}) =>
  queryOptions({
    queryKey: hubKeys.jobs.list(namespace, query),
    queryFn: ({ signal }) => client.listJobs(namespace, query, { signal }),
  });

export const jobQuery = (client: HubClient, namespace: string, jobId: string) =>
  queryOptions({
    queryKey: hubKeys.jobs.detail(namespace, jobId),
    queryFn: ({ signal }) => client.getJob(namespace, jobId, { signal }),
  });

/** Failures a retry cannot fix: bad requests, auth, missing things, and contract breaks. */
export function isPermanentHubError(error: unknown): boolean {
  if (error instanceof HubRequestError || error instanceof HubSchemaError) return true;
  // 429 is already retried inside the client, with the hub's own wait.
  if (error instanceof HubApiError) return error.status >= 400 && error.status < 500;
  if (error instanceof HubNetworkError) return error.kind === 'aborted';
  return false;
}

/** `retry` option for QueryClient defaults: up to `max` retries of transient failures only. */
export function hubRetry(max = 2) {
  return (failureCount: number, error: unknown): boolean => !isPermanentHubError(error) && failureCount < max;
}

/** Ready-made predicate with the default bound. */
export const shouldRetryHubError = hubRetry();
