import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubClient } from '../../hub/client.ts';
import { startMockHub, TOKENS, type Harness } from '../../test-support/hub-harness.ts';
import { WATCHED_TYPES, WEBHOOK_DOMAINS, WebhookInput, type Webhook } from '../../hub/schemas/index.ts';
// eslint-disable-next-line import/no-restricted-paths -- test-only: stored webhooks sampled from the request schema, as the hardening suite does
import { arbitraryFor, toJsonSchema } from '../../mock-hub/hardening/json-schema.ts';
import { issuesOfUpdate, updateBody } from './edit-body.ts';
import { draftFromWebhook, type WebhookDraft } from './form-model.ts';
import { allReadable } from '../../hub/tolerant-response.ts';

// Every stored webhook the schemas allow, loaded into the editor and saved: the mock's stored
// request (secret values included) changes in exactly the fields the user changed, no others.

let hub: Harness;
let alice: HubClient;
let jobIds: string[];
beforeAll(async () => {
  hub = await startMockHub();
  alice = hub.as(TOKENS.aliceWrite);
  jobIds = allReadable(await alice.listJobs('alice')).map((j) => j.id);
});
afterAll(() => hub.close());

interface Stored {
  request: Record<string, unknown> & { watched: unknown; domains: unknown };
  disabled: unknown;
  lastTriggerAt?: string;
}

async function stored(id: string): Promise<Stored> {
  const res = await hub.raw(`/api/_mock/webhooks/${id}/request`, { token: TOKENS.aliceWrite });
  expect(res.status).toBe(200);
  return (await res.json()) as Stored;
}

/** Create bodies the schema accepts; a source job id names one of alice's jobs (the hub checks). */
const createBodies = fc
  .tuple(arbitraryFor(toJsonSchema(WebhookInput)), fc.nat())
  .map(([body, n]) => {
    const b = body as Record<string, unknown>;
    return b.jobSourceId === undefined ? b : { ...b, jobSourceId: jobIds[n % jobIds.length] };
  })
  .filter((b) => WebhookInput.safeParse(b).success);

type Edit = { name: string; apply(d: WebhookDraft): void; expect(before: Stored['request']): Stored['request'] };

/** Loads the webhook into the editor, applies the user's edit, saves as the editor does. */
async function saveEdit(webhook: Webhook, edit: Edit) {
  const initial = draftFromWebhook(webhook);
  const draft = structuredClone(initial);
  edit.apply(draft);
  const body = updateBody(initial, draft);
  expect(issuesOfUpdate(initial, draft, body)).toEqual([]);
  await alice.updateWebhook(webhook.id, body);
}

async function checkEdit(webhook: Webhook, edit: Edit) {
  const before = await stored(webhook.id);
  await saveEdit(webhook, edit);
  expect(await stored(webhook.id)).toEqual({ ...before, request: edit.expect(before.request) });
}

const domainsArb = fc.subarray([...WEBHOOK_DOMAINS], { minLength: 1 });
const watchedArb = fc.array(
  fc.record({ type: fc.constantFrom(...WATCHED_TYPES), name: fc.stringMatching(/^[a-z0-9][a-z0-9/-]{0,20}$/) }),
  { minLength: 1, maxLength: 3 },
);

const noChange: Edit = { name: 'no change', apply: () => undefined, expect: (r) => r };
const domainsEdit = (domains: ('repo' | 'discussion')[]): Edit => ({
  name: 'domains only',
  apply: (d) => (d.domains = domains),
  expect: (r) => ({ ...r, domains }),
});
const watchedEdit = (watched: WebhookDraft['watched']): Edit => ({
  name: 'watched only',
  apply: (d) => (d.watched = watched),
  expect: (r) => ({ ...r, watched }),
});

const edits = fc.oneof(fc.constant(noChange), domainsArb.map(domainsEdit), watchedArb.map(watchedEdit));

describe('editing a stored webhook changes only what the user changed', () => {
  it('for generated webhooks (URL, job with every field, source job; secrets; any state)', async () => {
    await fc.assert(
      fc.asyncProperty(createBodies, fc.boolean(), edits, async (create, disable, edit) => {
        const created = await alice.createWebhook(create as WebhookInput);
        if (disable) await alice.webhookAction(created.id, 'disable');
        try {
          await checkEdit(await alice.getWebhook(created.id), edit);
        } finally {
          await alice.deleteWebhook(created.id);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('for the seeded webhooks (a job with arch-less attempts and a secret, a suspended one, a last trigger)', async () => {
    for (const webhook of allReadable(await alice.listWebhooks())) {
      for (const edit of [noChange, domainsEdit(['discussion']), watchedEdit([{ type: 'user', name: 'bob' }])])
        await checkEdit(await alice.getWebhook(webhook.id), edit);
    }
  });

  it('samples job webhooks with the settings the hub does not return, and secret values', () => {
    const samples = fc.sample(createBodies, { numRuns: 300, seed: 1 }) as { job?: Record<string, unknown> }[];
    for (const field of ['arch', 'attempts', 'volumes', 'expose', 'ssh', 'secrets'])
      expect(samples.some((s) => s.job?.[field] !== undefined)).toBe(true);
  });
});
