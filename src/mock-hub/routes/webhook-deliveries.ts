import { z } from 'zod';
import { ReplayResult, WebhookLogList } from '../../hub/schemas/index.ts';
import { MockEvent, MockEventResult } from '../delivery/event-schema.ts';
import { deliveriesOf } from '../delivery/registry.ts';
import { HttpError, notFound } from '../http/http-error.ts';
import { defineRoute } from '../http/route.ts';
import { findOwnWebhook } from './webhooks.ts';

const tag = 'webhooks';

// Mock tooling: makes an event happen (the real hub's events come from real pushes and comments).
const emitEvent = defineRoute({
  method: 'post', path: '/api/_mock/events', tag, auth: 'user', extension: 'tooling',
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
  method: 'get', path: '/api/settings/webhooks/{webhookId}/logs', tag, auth: 'user', extension: 'mock-only',
  summary: 'Deliveries of a webhook, newest first',
  description: 'Each entry: time, event, target (URL or job), HTTP status or null with the error (refused, timeout), duration, and the `id` that replay takes.',
  params: z.strictObject({ webhookId: z.string() }),
  response: WebhookLogList,
  errors: [404],
  handler: ({ params, auth, hub }) => {
    findOwnWebhook(hub.store.state, auth.user.name, params.webhookId);
    return deliveriesOf(hub).logs(params.webhookId);
  },
});

const encoder = new TextEncoder();

const replay = defineRoute({
  method: 'post', path: '/api/settings/webhooks/{webhookId}/replay/{logId}', tag, auth: 'user',
  summary: 'Re-send a logged delivery’s payload; answers the HTTP status of the replay',
  description:
    '`status` is 0 when the receiver gave no HTTP response (connection refused, 10 s timeout). A job webhook starts a new job and answers 200. ' +
    'The replay is logged like any delivery, with `replayOf` set.',
  params: z.strictObject({ webhookId: z.string(), logId: z.string() }),
  response: ReplayResult,
  raw: { contentType: 'application/json', validatedBy: 'ReplayResult in webhook-deliveries.test.ts' },
  errors: [404, 410],
  handler: ({ params, auth, hub }) => {
    findOwnWebhook(hub.store.state, auth.user.name, params.webhookId);
    const engine = deliveriesOf(hub);
    if (!engine.logs(params.webhookId).some((e) => e.id === params.logId)) throw notFound(`delivery "${params.logId}" not found in the log of webhook "${params.webhookId}"`);
    if (!engine.canReplay(params.logId)) throw new HttpError(410, `the payload of delivery "${params.logId}" is no longer kept (payloads live in memory; the mock hub restarted since)`);
    const pending = engine.replay(params.webhookId, params.logId);
    // Route handlers are synchronous (one store transaction each); the replay's status is only
    // known once the receiver answers, so the 200 is sent now and the JSON body when it is known.
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const result = (await pending.catch(() => undefined)) ?? { status: 0 };
        controller.enqueue(encoder.encode(JSON.stringify(ReplayResult.parse(result))));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  },
});

export const webhookDeliveryRoutes = [emitEvent, logs, replay];
