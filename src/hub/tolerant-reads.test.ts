// Property over every read endpoint of the client: a valid answer (generated from the contract),
// one item changed in one way (an unknown enum value, null for a field, an extra key, names as a
// list instead of a map or back, a wrong type): the others read exactly as before, the changed one
// reads or is kept as unreadable, nothing else is thrown. Rendering is checked by the e2e specs
// (e2e/jobs.spec.ts) and by the unreadable row's own test (src/components/ui/unreadable.test.tsx).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { applyMutation, mutationsOf, toJsonSchema, validSamples } from '../test-support/schema-values.ts';
import { createHubClient, type HubClient } from './client.ts';
import { HubSchemaError } from './errors.ts';
import { fakeFetch, json } from './fake-fetch.ts';
import * as s from './schemas/index.ts';
import { isUnreadable } from './tolerant-response.ts';

const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every way to change one item: the hardening mutations that matter here, plus the real hub's own shapes. */
function changesOf(item: unknown, schema: z.ZodType): unknown[] {
  const out = mutationsOf(item, toJsonSchema(schema))
    .filter((m) => m.kind === 'bad-enum' || m.kind === 'wrong-type' || m.kind === 'unknown-field')
    .map((m) => applyMutation(item, m));
  const walk = (v: unknown, at: (string | number)[]) => {
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      out.push(applyMutation(item, { kind: 'wrong-type', path: [...at, k], value: null }));
      if (k === 'secrets' && isObject(x))
        out.push(applyMutation(item, { kind: 'wrong-type', path: [...at, k], value: Object.keys(x) }));
      if (k === 'secrets' && Array.isArray(x))
        out.push(
          applyMutation(item, {
            kind: 'wrong-type',
            path: [...at, k],
            value: Object.fromEntries(x.map((n) => [n, null])),
          }),
        );
      walk(x, [...at, k]);
    }
  };
  walk(item, []);
  return out.map(wire);
}

interface ListEndpoint {
  item: z.ZodType;
  /** The answer holding `items`. */
  answer?: (items: unknown[]) => unknown;
  call: (c: HubClient) => Promise<unknown>;
  /** The items read, readable and unreadable, in the hub's order. */
  items: (result: never) => unknown[];
}

const asList = (r: unknown[]) => r;
const LISTS: Record<string, ListEndpoint> = {
  listJobs: { item: s.Job, call: (c) => c.listJobs('alice'), items: asList },
  listNotifications: {
    item: s.Notification,
    answer: (notifications) => ({
      notifications,
      count: { view: notifications.length, unread: 0, all: notifications.length },
      start: 0,
    }),
    call: (c) => c.listNotifications(),
    // Readable ones where the inbox expects them, the others apart: compared in that order.
    items: (r: { notifications: unknown[]; unreadable: unknown[] }) => [...r.notifications, ...r.unreadable],
  },
  listRepositoryUsage: { item: s.RepositoryUsage, call: (c) => c.listRepositoryUsage(), items: asList },
  listOrgRepositoryUsage: { item: s.RepositoryUsage, call: (c) => c.listOrgRepositoryUsage('acme'), items: asList },
  listWebhooks: { item: s.Webhook, call: (c) => c.listWebhooks(), items: asList },
  listWebhookLogs: { item: s.WebhookLogEntry, call: (c) => c.listWebhookLogs('f'.repeat(24)), items: asList },
  exportAuditLog: {
    item: s.AuditLogEvent,
    call: (c) => c.exportAuditLog('acme'),
    items: (r: { events: unknown[] }) => r.events,
  },
  listResourceGroups: { item: s.ResourceGroup, call: (c) => c.listResourceGroups('acme'), items: asList },
};

const ID = 'f'.repeat(24);
/** The other reads: one record each (a detail page), read or refused with its raw JSON. */
const RECORDS: Record<string, { schema: z.ZodType; call: (c: HubClient) => Promise<unknown> }> = {
  whoami: { schema: s.Whoami, call: (c) => c.whoami() },
  getJob: { schema: s.Job, call: (c) => c.getJob('alice', 'j') },
  getWebhook: { schema: s.WebhookEnvelope, call: (c) => c.getWebhook(ID) },
  getWebhookDelivery: { schema: s.WebhookDelivery, call: (c) => c.getWebhookDelivery(ID, 'l') },
  getResourceGroup: { schema: s.ResourceGroup, call: (c) => c.getResourceGroup('acme', ID) },
  getNotificationSettings: { schema: s.NotificationSettings, call: (c) => c.getNotificationSettings() },
  getWatchList: { schema: s.WatchList, call: (c) => c.getWatchList() },
  getMcpSettings: { schema: s.McpSettings, call: (c) => c.getMcpSettings() },
  getPaper: { schema: s.Paper, call: (c) => c.getPaper('2501.00001') },
};

const client = (body: unknown) =>
  createHubClient({ baseUrl: 'https://hub.example', token: '', fetch: fakeFetch(json(body)).fetch, maxRetries: 0 });

describe.each(Object.entries(LISTS))('%s with one item changed', (_name, e) => {
  const samples = validSamples(e.item, toJsonSchema(e.item), 4).map(wire);
  const answer = e.answer ?? ((items: unknown[]) => items);

  it('reads every other item as before; the changed one reads or is kept as unreadable with its raw JSON', async () => {
    expect(samples.length).toBeGreaterThan(1);
    const before = e.items((await e.call(client(answer(samples)))) as never);
    expect(before.filter(isUnreadable)).toEqual([]);
    const seen = { read: 0, unreadable: 0 };
    await fc.assert(
      fc.asyncProperty(fc.nat(samples.length - 1), fc.nat(), async (at, pick) => {
        const changes = changesOf(samples[at], e.item);
        const changed = changes[pick % changes.length];
        const items = samples.map((x, i) => (i === at ? changed : x));
        const got = e.items((await e.call(client(answer(items)))) as never);
        expect(got).toHaveLength(samples.length);
        const others = got.filter((x) => !isUnreadable(x));
        const unreadable = got.filter(isUnreadable);
        if (unreadable.length) {
          seen.unreadable++;
          expect(unreadable).toHaveLength(1);
          expect(unreadable[0]!.raw).toEqual(changed);
          expect(unreadable[0]!.issues.length).toBeGreaterThan(0);
          expect(others).toEqual(before.filter((_, i) => i !== at));
        } else {
          seen.read++;
          expect(got.filter((_, i) => i !== at)).toEqual(before.filter((_, i) => i !== at));
        }
      }),
      { numRuns: 40 },
    );
    expect(seen.read).toBeGreaterThan(0);
  });
});

describe.each(Object.entries(RECORDS))('%s with its answer changed in one spot', (_name, e) => {
  const samples = validSamples(e.schema, toJsonSchema(e.schema), 3).map(wire);

  it('reads it, or refuses it with the raw JSON and the fields that did read; nothing else is thrown', async () => {
    expect(samples.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...samples), fc.nat(), async (base, pick) => {
        const changes = changesOf(base, e.schema);
        fc.pre(changes.length > 0);
        const changed = changes[pick % changes.length];
        const got = await e.call(client(changed)).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (got !== undefined) {
          expect(got).toBeInstanceOf(HubSchemaError);
          expect((got as HubSchemaError).answer?.raw).toEqual(changed);
        }
      }),
      { numRuns: 30 },
    );
  });
});
