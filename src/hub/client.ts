import { z } from 'zod';
import {
  AnyObject,
  AuditLogQuery,
  DeleteSuccess,
  HubRepoList,
  HubRepoListQuery,
  Job,
  JobListQuery,
  JobLogEvent,
  JobLogsQuery,
  MarkAsReadBody,
  McpSettings,
  NotificationBulkQuery,
  NotificationDeleteBody,
  NotificationFilters,
  Notification,
  NotificationList,
  NotificationSettings,
  NotificationSettingsPatch,
  Paper,
  PaperClaim,
  PaperClaimResult,
  ReplayResult,
  RepositoryUsage,
  RepositoryUsageQuery,
  ResourceGroup,
  ResourceGroupCreate,
  ResourceGroupPatch,
  TestEventInput,
  TestEventResult,
  TokenRevoke,
  WatchList,
  WatchPatch,
  WebhookAction,
  Webhook,
  WebhookDelivery,
  WebhookEnvelope,
  WebhookInput,
  WebhookUpdateInput,
  WebhookLogEntry,
  Whoami,
  AuditLogEvent,
} from './schemas/index.ts';
import { ModelInfo, ModelInfoQuery, RepoTree, RepoTreeQuery } from './schemas/repo-tree.ts';
import { filenameFromContentDisposition } from './content-disposition.ts';
import { HubEndpointNotExposedError, HubNetworkError, HubSchemaError } from './errors.ts';
import { sseData } from './sse.ts';
import { itemwise, splitReadable, tolerantParse, type Readable } from './tolerant-response.ts';
import {
  createTransport,
  encodePath,
  toIssues,
  validateRequest,
  type HttpMethod,
  type TransportOptions,
} from './transport.ts';

export type HubClientOptions = TransportOptions;

/** Last argument of every method. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface AuditLogExportResult {
  events: Readable<AuditLogEvent>[];
  /** From `Content-Disposition` (`filename*` preferred), null when the hub sent none. */
  filename: string | null;
  /** The body as received, for saving the export byte for byte. */
  raw: string;
}

/** Bodies the spec leaves "not shown": any JSON object, or nothing at all. */
const NotShown = z.preprocess((v) => (v === undefined ? {} : v), AnyObject);
// Lists are read item by item: an item that cannot be read is kept as unreadable, the others read.
const JobList = itemwise(Job);
/** A notifications page: the readable ones where the inbox expects them, the others apart. */
const NotificationPage = NotificationList.extend({ notifications: itemwise(Notification) }).transform(
  ({ notifications, ...page }) => {
    const { items, unreadable } = splitReadable(notifications);
    return { ...page, notifications: items, unreadable };
  },
);
export type NotificationPage = z.output<typeof NotificationPage>;
const RepositoryUsageList = itemwise(RepositoryUsage);
const WebhookList = itemwise(Webhook);
const WebhookLogList = itemwise(WebhookLogEntry);
const AuditLogExport = itemwise(AuditLogEvent);
const ResourceGroupList = itemwise(ResourceGroup);
/** Pages of a list followed through `Link: rel="next"` (huggingface_hub's `paginate` follows them too). */
export const MAX_LIST_PAGES = 20;
/** The jobs list's name for the same limit. */
export const MAX_JOB_PAGES = MAX_LIST_PAGES;

interface SendParts {
  params?: Record<string, string>;
  /** Query schemas are objects; validated output becomes the query string. */
  query?: { schema: z.ZodType<Record<string, unknown>, unknown>; value: unknown };
  body?: { schema: z.ZodType; value: unknown };
  signal?: AbortSignal | undefined;
}

export function createHubClient(options: HubClientOptions) {
  const { request, stream, nextPagePath } = createTransport(options);

  async function send<S extends z.ZodType>(method: HttpMethod, template: string, response: S, parts: SendParts = {}) {
    const label = `${method} ${template}`;
    const path = encodePath(label, parts.params ?? {}, template);
    const query = parts.query ? validateRequest(parts.query.schema, parts.query.value ?? {}, label) : undefined;
    const body = parts.body ? validateRequest(parts.body.schema, parts.body.value, label) : undefined;
    return request({ method, path, query, body, response, signal: parts.signal });
  }

  async function data<S extends z.ZodType>(
    method: HttpMethod,
    template: string,
    response: S,
    parts: SendParts = {},
  ): Promise<z.output<S>> {
    return (await send(method, template, response, parts)).data;
  }

  /**
   * Endpoints the spec does not have and no public client calls (mock extensions): a hub without
   * them answers as for an unknown route, which becomes a HubEndpointNotExposedError.
   */
  async function mockOnly<T>(what: string, call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      throw HubEndpointNotExposedError.from(error, what);
    }
  }

  /** Every item of a paged list: the first page, then each `Link: rel="next"` page, at most MAX_LIST_PAGES. */
  async function allPages<T>(
    method: HttpMethod,
    template: string,
    list: z.ZodType<T[], unknown>,
    parts: SendParts,
  ): Promise<T[]> {
    const first = await send(method, template, list, parts);
    const items = [...first.data];
    let next = nextPagePath(first.headers);
    for (let page = 1; next && page < MAX_LIST_PAGES; page++) {
      const res = await request({ method: 'GET', path: next, response: list, signal: parts.signal });
      items.push(...res.data);
      next = nextPagePath(res.headers);
    }
    return items;
  }

  const JOB = '/api/jobs/{namespace}/{jobId}';

  const listJobs = (namespace: string, query: JobListQuery = {}, o: CallOptions = {}): Promise<Readable<Job>[]> =>
    allPages('GET', '/api/jobs/{namespace}', JobList, {
      params: { namespace },
      query: { schema: JobListQuery, value: query },
      ...o,
    });

  async function* streamJobLogs(
    namespace: string,
    jobId: string,
    query: JobLogsQuery = {},
    o: CallOptions = {},
  ): AsyncGenerator<JobLogEvent> {
    const label = `GET ${JOB}/logs`;
    const path = encodePath(label, { namespace, jobId }, `${JOB}/logs`);
    const body = await stream({ path, query: validateRequest(JobLogsQuery, query, label), signal: o.signal });
    const endpoint = `GET ${path}`;
    const events = sseData(body);
    try {
      for (;;) {
        let next: IteratorResult<string>;
        try {
          next = await events.next();
        } catch (cause) {
          throw new HubNetworkError(
            endpoint,
            o.signal?.aborted ? 'aborted' : 'network',
            o.signal?.aborted ? '' : 'the log stream broke off',
            { cause },
          );
        }
        if (next.done) return;
        let json: unknown;
        try {
          json = JSON.parse(next.value);
        } catch {
          throw new HubSchemaError(endpoint, [{ path: '', message: 'a log event is not JSON' }]);
        }
        const event = tolerantParse(JobLogEvent, json);
        if (!event.success) throw new HubSchemaError(endpoint, toIssues(event.error));
        yield event.data;
      }
    } finally {
      // Stopping early (or failing) closes the connection.
      await events.return(undefined);
    }
  }

  /**
   * Model repositories, as the real hub serves them (outside the spec): huggingface.js
   * packages/hub/src/lib/list-models.ts `listModels`, list-files.ts `listFiles` and model-info.ts
   * `modelInfo` call these routes. `repoId` is `owner/name`.
   */
  const MODEL = '/api/models/{namespace}/{repo}';
  const modelParams = (repoId: string, revision: string) => {
    const slash = repoId.indexOf('/');
    return { namespace: repoId.slice(0, Math.max(0, slash)), repo: repoId.slice(slash + 1), revision };
  };
  const modelRepoReads = {
    /** GET /api/models?author=: the first page of a user's or an organization's models */
    listModels: (query: z.input<typeof HubRepoListQuery>, o: CallOptions = {}) =>
      data('GET', '/api/models', HubRepoList, { query: { schema: HubRepoListQuery, value: query }, ...o }),
    /** GET .../tree/{revision}?recursive=true: every file and folder of the repository (the first page, as the hub pages it) */
    listModelFiles: (repoId: string, revision: string, o: CallOptions = {}) =>
      data('GET', `${MODEL}/tree/{revision}`, RepoTree, {
        params: modelParams(repoId, revision),
        query: { schema: RepoTreeQuery, value: { recursive: true } },
        ...o,
      }),
    /** GET .../revision/{revision}: the commit the revision points at, visibility, file names */
    getModelInfo: (repoId: string, revision: string, o: CallOptions = {}) =>
      data('GET', `${MODEL}/revision/{revision}`, ModelInfo, {
        params: modelParams(repoId, revision),
        query: { schema: ModelInfoQuery, value: {} },
        ...o,
      }),
  };

  const ORG = '/api/organizations/{org}';
  const WEBHOOK = '/api/settings/webhooks/{webhookId}';

  return {
    /** GET /api/whoami-v2: not in the spec; the real hub's path (huggingface_hub's whoami). */
    whoami: (o: CallOptions = {}) => data('GET', '/api/whoami-v2', Whoami, o),

    // Notifications. Bulk calls act on the listed ids, and with `applyToAll` also on every
    // notification matching the filters; ids the hub does not know are ignored (docs/decisions.md).
    listNotifications: (filters: NotificationFilters = {}, o: CallOptions = {}) =>
      data('GET', '/api/notifications', NotificationPage, {
        query: { schema: NotificationFilters, value: filters },
        ...o,
      }),
    /** `discussionIds` are any strings (post and paper discussion ids are not id24); `{}` is a valid no-op. */
    markNotifications: (body: MarkAsReadBody, query: NotificationBulkQuery = {}, o: CallOptions = {}) =>
      data('POST', '/api/notifications/mark-as-read', NotShown, {
        query: { schema: NotificationBulkQuery, value: query },
        body: { schema: MarkAsReadBody, value: body },
        ...o,
      }),
    /** `discussionIds`: at least one id24, as the spec has it. */
    deleteNotifications: (body: NotificationDeleteBody, query: NotificationBulkQuery = {}, o: CallOptions = {}) =>
      data('DELETE', '/api/notifications', NotShown, {
        query: { schema: NotificationBulkQuery, value: query },
        body: { schema: NotificationDeleteBody, value: body },
        ...o,
      }),

    // Settings
    /** Mock-only: the spec has no read for the current flags. */
    getNotificationSettings: (o: CallOptions = {}) =>
      mockOnly(
        'the current notification settings',
        data('GET', '/api/settings/notifications', NotificationSettings, o),
      ),
    patchNotificationSettings: (body: NotificationSettingsPatch, o: CallOptions = {}) =>
      data('PATCH', '/api/settings/notifications', NotShown, {
        body: { schema: NotificationSettingsPatch, value: body },
        ...o,
      }),
    /** Mock-only: the spec has no read for the current watch list. */
    getWatchList: (o: CallOptions = {}) =>
      mockOnly('your current watch list', data('GET', '/api/settings/watch', WatchList, o)),
    patchWatch: (body: WatchPatch, o: CallOptions = {}) =>
      data('PATCH', '/api/settings/watch', NotShown, { body: { schema: WatchPatch, value: body }, ...o }),
    getMcpSettings: (o: CallOptions = {}) => data('GET', '/api/settings/mcp', McpSettings, o),

    // Papers
    /** Not in the spec; the real hub serves it (huggingface_hub's paper_info), with more fields. */
    getPaper: (paperId: string, o: CallOptions = {}) =>
      data('GET', '/api/papers/{paperId}', Paper, { params: { paperId }, ...o }),
    claimPaper: (body: PaperClaim, o: CallOptions = {}) =>
      data('POST', '/api/settings/papers/claim', PaperClaimResult, { body: { schema: PaperClaim, value: body }, ...o }),

    // Repository storage: paged like the real hub's (huggingface_hub reads it with `paginate`); every page.
    listRepositoryUsage: (query: RepositoryUsageQuery = {}, o: CallOptions = {}) =>
      allPages('GET', '/api/settings/repositories', RepositoryUsageList, {
        query: { schema: RepositoryUsageQuery, value: query },
        ...o,
      }),
    listOrgRepositoryUsage: (org: string, query: RepositoryUsageQuery = {}, o: CallOptions = {}) =>
      allPages('GET', `${ORG}/settings/repositories`, RepositoryUsageList, {
        params: { org },
        query: { schema: RepositoryUsageQuery, value: query },
        ...o,
      }),

    // Webhooks
    listWebhooks: (o: CallOptions = {}) => data('GET', '/api/settings/webhooks', WebhookList, o),
    getWebhook: async (webhookId: string, o: CallOptions = {}) =>
      (await data('GET', WEBHOOK, WebhookEnvelope, { params: { webhookId }, ...o })).webhook,
    createWebhook: async (body: WebhookInput, o: CallOptions = {}) =>
      (
        await data('POST', '/api/settings/webhooks', WebhookEnvelope, {
          body: { schema: WebhookInput, value: body },
          ...o,
        })
      ).webhook,
    updateWebhook: async (webhookId: string, body: WebhookUpdateInput, o: CallOptions = {}) =>
      (
        await data('POST', WEBHOOK, WebhookEnvelope, {
          params: { webhookId },
          body: { schema: WebhookUpdateInput, value: body },
          ...o,
        })
      ).webhook,
    deleteWebhook: async (webhookId: string, o: CallOptions = {}): Promise<void> => {
      await data('DELETE', WEBHOOK, NotShown, { params: { webhookId }, ...o });
    },
    webhookAction: async (webhookId: string, action: 'enable' | 'disable', o: CallOptions = {}) => {
      const checked = validateRequest(WebhookAction, action, `POST ${WEBHOOK}/{action}`);
      return (
        await data('POST', `${WEBHOOK}/{action}`, WebhookEnvelope, { params: { webhookId, action: checked }, ...o })
      ).webhook;
    },
    /** Mock-only: the real hub's activity log is not in its API (its shape is "not shown"). */
    listWebhookLogs: (webhookId: string, o: CallOptions = {}) =>
      mockOnly('the delivery log', data('GET', `${WEBHOOK}/logs`, WebhookLogList, { params: { webhookId }, ...o })),
    /** Mock-only: one logged delivery with its request and the receiver's answer. */
    getWebhookDelivery: (webhookId: string, logId: string, o: CallOptions = {}) =>
      mockOnly(
        'the delivery log',
        data('GET', `${WEBHOOK}/logs/{logId}`, WebhookDelivery, { params: { webhookId, logId }, ...o }),
      ),
    replayWebhookDelivery: (webhookId: string, logId: string, o: CallOptions = {}) =>
      data('POST', `${WEBHOOK}/replay/{logId}`, ReplayResult, { params: { webhookId, logId }, ...o }),
    /** Mock-only: delivers a sample event to this webhook and answers once it is logged. */
    sendWebhookTestEvent: (webhookId: string, body: TestEventInput, o: CallOptions = {}) =>
      mockOnly(
        'test events',
        data('POST', '/api/_mock/webhooks/{webhookId}/test', TestEventResult, {
          params: { webhookId },
          body: { schema: TestEventInput, value: body },
          ...o,
        }),
      ),

    // Organizations
    revokeOrgToken: (org: string, body: TokenRevoke, o: CallOptions = {}) =>
      data('POST', `${ORG}/settings/tokens/revoke`, NotShown, {
        params: { org },
        body: { schema: TokenRevoke, value: body },
        ...o,
      }),
    exportAuditLog: async (
      org: string,
      query: AuditLogQuery = {},
      o: CallOptions = {},
    ): Promise<AuditLogExportResult> => {
      const res = await send('GET', `${ORG}/audit-log/export`, AuditLogExport, {
        params: { org },
        query: { schema: AuditLogQuery, value: query },
        ...o,
      });
      return {
        events: res.data,
        filename: filenameFromContentDisposition(res.headers.get('content-disposition')),
        raw: res.text,
      };
    },
    /** Mock-only: no public client lists resource groups. */
    listResourceGroups: (org: string, o: CallOptions = {}) =>
      mockOnly(
        'the list of resource groups',
        data('GET', `${ORG}/resource-groups`, ResourceGroupList, { params: { org }, ...o }),
      ),
    /** Mock-only: no public client creates resource groups. */
    createResourceGroup: (org: string, body: ResourceGroupCreate, o: CallOptions = {}) =>
      mockOnly(
        'creating resource groups',
        data('POST', `${ORG}/resource-groups`, ResourceGroup, {
          params: { org },
          body: { schema: ResourceGroupCreate, value: body },
          ...o,
        }),
      ),
    getResourceGroup: (org: string, resourceGroupId: string, o: CallOptions = {}) =>
      data('GET', `${ORG}/resource-groups/{resourceGroupId}`, ResourceGroup, {
        params: { org, resourceGroupId },
        ...o,
      }),
    patchResourceGroup: (org: string, resourceGroupId: string, body: ResourceGroupPatch, o: CallOptions = {}) =>
      data('PATCH', `${ORG}/resource-groups/{resourceGroupId}`, ResourceGroup, {
        params: { org, resourceGroupId },
        body: { schema: ResourceGroupPatch, value: body },
        ...o,
      }),
    deleteResourceGroup: (org: string, resourceGroupId: string, o: CallOptions = {}) =>
      data('DELETE', `${ORG}/resource-groups/{resourceGroupId}`, DeleteSuccess, {
        params: { org, resourceGroupId },
        ...o,
      }),

    // Jobs: the Job schema is the spec's; the endpoints are the real hub's (huggingface_hub's
    // list_jobs, inspect_job, cancel_job and fetch_job_logs call them).
    /** GET /api/jobs/{namespace}, newest first; `stage` and `label` (key=value) filter on the hub; every page. */
    listJobs,
    getJob: (namespace: string, jobId: string, o: CallOptions = {}) =>
      data('GET', JOB, Job, { params: { namespace, jobId }, ...o }),
    /** POST .../cancel. The answer's body is not relied on (huggingface_hub reads only the status). */
    cancelJob: async (namespace: string, jobId: string, o: CallOptions = {}): Promise<void> => {
      await data('POST', `${JOB}/cancel`, NotShown, { params: { namespace, jobId }, ...o });
    },
    /** GET .../logs: server-sent events, each parsed as JobLogEvent; ends when the hub closes the stream (the job ended). */
    streamJobLogs,

    ...modelRepoReads,
  };
}

export type HubClient = ReturnType<typeof createHubClient>;
