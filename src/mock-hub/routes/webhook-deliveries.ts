import { z } from 'zod';
import {
  DELIVERY_PAYLOAD_LIMIT_BYTES,
  DELIVERY_RESPONSE_LIMIT_BYTES,
  ReplayResult,
  TestEventInput,
  TestEventResult,
  WebhookDelivery,
  WebhookLogList,
  testEventDomain,
} from '../../hub/schemas/index.ts';
import { logSummary } from '../delivery/delivery-log.ts';
import { MockEvent, MockEventResult } from '../delivery/event-schema.ts';
import { deliveriesOf } from '../delivery/registry.ts';
import { testEvent, testEventRepo } from '../delivery/test-events.ts';
import { HttpError, badRequest, notFound } from '../http/http-error.ts';
import { defineRoute, type RouteContext } from '../http/route.ts';
import { findOwnWebhook } from './webhooks.ts';

const tag = 'webhooks';
const LogParams = z.strictObject({ webhookId: z.string(), logId: z.string() });

// Mock tooling: makes an event happen (the real hub's events come from real pushes and comments).
const emitEvent = defineRoute({
  method: 'post',
  path: '/api/_mock/events',
  tag,
  auth: 'user',
  extension: 'tooling',
  summary: 'Make a repo or discussion event happen and deliver it to every matching webhook',
  description:
    'Matches enabled webhooks whose `watched` covers the repo (itself or its owner) and whose `domains` include the event family ' +
    '(`repo` or `discussion`, the part of `scope` before the dot). Answers at once with the webhooks reached; the deliveries ' +
    '(POST to the URL, or a started Job) run in the background and appear in each webhook’s log.',
  body: MockEvent,
  response: MockEventResult,
  handler: ({ body, auth, hub }) => deliveriesOf(hub).emit(body, auth.user.name),
});

// Mock-only: no public client reads a webhook's activity log (the spec has only the replay, and its
// log record shape is "not shown"). The webhook page offers replay by log id without it.
const logs = defineRoute({
  method: 'get',
  path: '/api/settings/webhooks/{webhookId}/logs',
  tag,
  auth: 'user',
  extension: 'mock-only',
  summary: 'Deliveries of a webhook, newest first',
  description:
    'The last 50 deliveries. Each entry: time, event and its repo, target (URL or job), HTTP status or null with the error and the ' +
    'failure kind (refused, timeout, non-2xx, network, job), duration, and the `id` that replay and the detail take.',
  params: z.strictObject({ webhookId: z.string() }),
  response: WebhookLogList,
  errors: [404],
  handler: (ctx) => {
    findOwnWebhook(ctx);
    return deliveriesOf(ctx.hub).logs(ctx.params.webhookId).map(logSummary);
  },
});

/** Entry `{logId}` of the log of the caller's webhook `{webhookId}`. */
function findLoggedDelivery(ctx: RouteContext<'user', { webhookId: string; logId: string }, unknown, unknown>) {
  findOwnWebhook(ctx);
  const { webhookId, logId } = ctx.params;
  const found = deliveriesOf(ctx.hub)
    .logs(webhookId)
    .find((e) => e.id === logId);
  if (!found) throw notFound(`delivery "${logId}" not found in the log of webhook "${webhookId}"`);
  return found;
}

// Mock-only: no public client reads a logged delivery (the log itself is not in the real hub's API).
const delivery = defineRoute({
  method: 'get',
  path: '/api/settings/webhooks/{webhookId}/logs/{logId}',
  tag,
  auth: 'user',
  extension: 'mock-only',
  summary: 'One logged delivery with its request and the receiver’s answer',
  description:
    `The log entry plus \`request\` (headers as sent with the secret masked, the payload JSON as sent, cut at ${DELIVERY_PAYLOAD_LIMIT_BYTES} bytes) ` +
    `and \`response\` (content type and the first ${DELIVERY_RESPONSE_LIMIT_BYTES} bytes of the body; null when no HTTP answer came or for job webhooks).`,
  params: LogParams,
  response: WebhookDelivery,
  errors: [404],
  handler: findLoggedDelivery,
});

const encoder = new TextEncoder();

/**
 * Route handlers are synchronous (one store transaction each); a delivery's status is only known
 * once the receiver answers, so the 200 is sent now and the JSON body when it is known.
 */
function answerWhenSettled<T>(pending: Promise<T | undefined>, fallback: T, schema: z.ZodType<T>): Response {
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const result = (await pending.catch(() => undefined)) ?? fallback;
      controller.enqueue(encoder.encode(JSON.stringify(schema.parse(result))));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

const replay = defineRoute({
  method: 'post',
  path: '/api/settings/webhooks/{webhookId}/replay/{logId}',
  tag,
  auth: 'user',
  summary: 'Re-send a logged delivery’s payload; answers the HTTP status of the replay',
  description:
    '`status` is 0 when the receiver gave no HTTP response (connection refused, 10 s timeout). A job webhook starts a new job and answers 200. ' +
    'The replay is logged like any delivery, with `replayOf` set.',
  params: LogParams,
  response: ReplayResult,
  raw: { contentType: 'application/json', validatedBy: 'ReplayResult in webhook-deliveries.test.ts' },
  errors: [404, 410],
  handler: (ctx) => {
    const { params, hub } = ctx;
    findLoggedDelivery(ctx);
    const engine = deliveriesOf(hub);
    if (!engine.canReplay(params.webhookId, params.logId)) {
      throw new HttpError(
        410,
        `the payload of delivery "${params.logId}" is not kept whole (over ${DELIVERY_PAYLOAD_LIMIT_BYTES} bytes, or logged by an older mock hub), so it cannot be replayed`,
      );
    }
    return answerWhenSettled(engine.replay(params.webhookId, params.logId), { status: 0 }, ReplayResult);
  },
});

// Mock-only: no public client sends a test event; the webhook page offers it only where the
// delivery log is exposed (a hub that has one has this too).
const sendTestEvent = defineRoute({
  method: 'post',
  path: '/api/_mock/webhooks/{webhookId}/test',
  tag,
  auth: 'user',
  extension: 'mock-only',
  summary:
    'Deliver a sample event to this webhook only, through the normal delivery path, and answer when it is logged',
  description:
    'The event is about the first repo the webhook watches (else a repo of the first user or org it watches). It is delivered even when ' +
    'the webhook is disabled and counts towards suspension like any delivery while it is enabled; the log entry has `test: true`. ' +
    '`status` is the receiver’s HTTP status, 0 when none came. 400 when the sample’s domain (repo or discussion) is not among the webhook’s domains.',
  params: z.strictObject({ webhookId: z.string() }),
  body: TestEventInput,
  response: TestEventResult,
  raw: { contentType: 'application/json', validatedBy: 'TestEventResult in webhook-deliveries.test.ts' },
  errors: [404],
  handler: (ctx) => {
    const { params, body, hub } = ctx;
    const { stored } = findOwnWebhook(ctx);
    const domain = testEventDomain(body.sample);
    if (!stored.webhook.domains.includes(domain))
      throw badRequest(`body.sample: this webhook does not subscribe to ${domain} events`);
    const reposOf = (owner: string) =>
      hub.store.state.repos.filter((r) => r.owner === owner).map((r) => ({ type: r.type, name: r.id }));
    const event = testEvent(body.sample, testEventRepo(stored.webhook, reposOf));
    return answerWhenSettled(
      deliveriesOf(hub).sendTest(params.webhookId, event),
      { logId: '', status: 0 },
      TestEventResult,
    );
  },
});

export const webhookDeliveryRoutes = [emitEvent, logs, delivery, replay, sendTestEvent];
