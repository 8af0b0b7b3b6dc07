import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  EmptyObject,
  WebhookAction,
  WebhookEnvelope,
  WebhookInput,
  WebhookList,
  WebhookUpdateInput,
} from '../../hub/schemas/index.ts';
import { badRequest, notFound } from '../http/http-error.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import type { HubState } from '../store/state-schema.ts';
import { StoredWebhookRequest, storedRequestOf } from '../webhooks/stored-request.ts';
import { webhookFromInput } from '../webhooks/webhook-from-input.ts';

const tag = 'webhooks';
const IdParams = z.strictObject({ webhookId: z.string() });

/** The caller's webhook `{webhookId}`; one of another user is reported as not found, like an unknown id. */
export function findOwnWebhook({
  params: { webhookId },
  auth,
  hub,
}: RouteContext<'user', { webhookId: string }, unknown, unknown>) {
  const state = hub.store.state;
  const i = state.webhooks.findIndex((w) => w.owner === auth.user.name && w.webhook.id === webhookId);
  if (i < 0) throw notFound(`webhook "${webhookId}" not found`);
  return { index: i, stored: state.webhooks[i]! };
}

function checkJobSource(state: HubState, jobSourceId: string | undefined) {
  if (jobSourceId === undefined) return;
  if (!Object.values(state.jobs).some((jobs) => jobs.some((j) => j.id === jobSourceId)))
    throw notFound(`body.jobSourceId: job "${jobSourceId}" not found`);
}

const list = defineRoute({
  method: 'get',
  path: '/api/settings/webhooks',
  tag,
  auth: 'user',
  summary: "The caller's webhooks",
  response: WebhookList,
  handler: ({ auth, hub }) => hub.store.state.webhooks.filter((w) => w.owner === auth.user.name).map((w) => w.webhook),
});

const create = defineRoute({
  method: 'post',
  path: '/api/settings/webhooks',
  tag,
  auth: 'user',
  summary: 'Create a webhook (exactly one target: url, job or jobSourceId)',
  description: 'jobSourceId must name an existing job (404 otherwise).',
  body: WebhookInput,
  response: WebhookEnvelope,
  errors: [404],
  handler: ({ body, auth, hub }) => {
    const state = hub.store.state;
    checkJobSource(state, body.jobSourceId);
    const stored = webhookFromInput(randomBytes(12).toString('hex'), auth.user.name, body);
    state.webhooks.push(stored);
    return { webhook: stored.webhook };
  },
});

const get = defineRoute({
  method: 'get',
  path: '/api/settings/webhooks/{webhookId}',
  tag,
  auth: 'user',
  summary: 'One webhook',
  params: IdParams,
  response: WebhookEnvelope,
  errors: [404],
  handler: (ctx) => ({ webhook: findOwnWebhook(ctx).stored.webhook }),
});

const update = defineRoute({
  method: 'post',
  path: '/api/settings/webhooks/{webhookId}',
  tag,
  auth: 'user',
  summary:
    'Update a webhook: given fields replace stored ones, left-out fields are kept (state and lastTriggerAt kept)',
  description:
    'An empty `watched` keeps the stored list (huggingface_hub sends [] when watched is not changed). A given target (url, job or jobSourceId) replaces the stored target.',
  params: IdParams,
  body: WebhookUpdateInput,
  response: WebhookEnvelope,
  errors: [404],
  handler: (ctx) => {
    const { body, hub } = ctx;
    const state = hub.store.state;
    const { index, stored } = findOwnWebhook(ctx);
    checkJobSource(state, body.jobSourceId);
    const prev = stored.webhook;
    const newTarget = body.url !== undefined || body.job !== undefined || body.jobSourceId !== undefined;
    // A kept job re-enters validation as its stored request, secret values included.
    const merged = WebhookInput.safeParse({
      watched: body.watched?.length ? body.watched : prev.watched.map(({ type, name }) => ({ type, name })),
      domains: body.domains ?? prev.domains,
      ...(newTarget
        ? { url: body.url, job: body.job, jobSourceId: body.jobSourceId }
        : { url: prev.url, job: prev.job && stored.jobRequest, jobSourceId: prev.jobSourceId }),
      secret: body.secret ?? prev.secret,
    });
    if (!merged.success)
      throw badRequest(
        `body.${merged.error.issues[0]?.path.join('.') ?? ''}: ${merged.error.issues[0]?.message ?? 'invalid webhook'}`,
      );
    const next = webhookFromInput(prev.id, stored.owner, merged.data, prev);
    state.webhooks[index] = next;
    return { webhook: next.webhook };
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/api/settings/webhooks/{webhookId}',
  tag,
  auth: 'user',
  summary: 'Delete a webhook',
  params: IdParams,
  response: EmptyObject,
  errors: [404],
  handler: (ctx) => {
    const state = ctx.hub.store.state;
    state.webhooks.splice(findOwnWebhook(ctx).index, 1);
    delete state.webhookLogs[ctx.params.webhookId];
    return {};
  },
});

const action = defineRoute({
  method: 'post',
  path: '/api/settings/webhooks/{webhookId}/{action}',
  tag,
  auth: 'user',
  summary: 'Enable (also lifts suspended-after-failure) or disable a webhook',
  params: z.strictObject({ webhookId: z.string(), action: WebhookAction }),
  response: WebhookEnvelope,
  errors: [404],
  handler: (ctx) => {
    const { stored } = findOwnWebhook(ctx);
    stored.webhook.disabled = ctx.params.action === 'disable';
    return { webhook: stored.webhook };
  },
});

// Mock tooling, mock-only: what an edit left of a stored webhook, secret values included (tests read it).
const storedRequest = defineRoute({
  method: 'get',
  path: '/api/_mock/webhooks/{webhookId}/request',
  tag,
  auth: 'user',
  extension: 'mock-only',
  summary: 'The stored webhook as the request that would create it again, secret values included, with its state',
  description:
    'For tests: a field that differs before and after an edit is a field the edit changed. The real hub never returns secret values.',
  params: IdParams,
  response: StoredWebhookRequest,
  errors: [404],
  handler: (ctx) => storedRequestOf(findOwnWebhook(ctx).stored),
});

export const webhookRoutes = [list, create, get, update, remove, action, storedRequest];
