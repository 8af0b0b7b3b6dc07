import { afterEach, describe, expect, it } from 'vitest';
import type { HubEndpointNotExposedError } from './errors.ts';
import { HubApiError, isEndpointNotExposed } from './errors.ts';
import { TOKENS, startMockHub, type Harness } from '../test-support/hub-harness.ts';
import { isPermanentHubError } from './queries.ts';
import { allReadable } from './tolerant-response.ts';

let hub: Harness | undefined;
afterEach(() => hub?.close());

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('against a hub with only the spec (and the real hub) endpoints', () => {
  it('reports every mock-only call as not exposed, naming what is missing, and does not retry it', async () => {
    hub = await startMockHub({ specOnly: true });
    const alice = hub.as(TOKENS.aliceWrite);
    const webhooks = allReadable(await alice.listWebhooks());
    const calls: [Promise<unknown>, string][] = [
      [alice.getNotificationSettings(), 'the current notification settings'],
      [alice.getWatchList(), 'your current watch list'],
      [alice.listWebhookLogs(webhooks[0]!.id), 'the delivery log'],
      [alice.listResourceGroups('acme'), 'the list of resource groups'],
      [alice.createResourceGroup('acme', { name: 'x' }), 'creating resource groups'],
    ];
    for (const [call, what] of calls) {
      const e = await rejection(call);
      expect(isEndpointNotExposed(e), what).toBe(true);
      expect((e as HubEndpointNotExposedError).what).toBe(what);
      expect((e as HubApiError).status).toBe(404);
      expect(isPermanentHubError(e)).toBe(true);
    }
  });

  it('keeps what the spec has working, and other errors as they were', async () => {
    hub = await startMockHub({ specOnly: true });
    const alice = hub.as(TOKENS.aliceWrite);
    await expect(alice.patchWatch({ add: [{ type: 'user', id: 'bob' }], delete: [] })).resolves.toBeDefined();
    await expect(alice.getResourceGroup('acme', '1945c495ec9458913a736cea')).resolves.toMatchObject({
      name: 'Research',
    });
    const missing = await rejection(alice.getResourceGroup('acme', 'ffffffffffffffffffffffff'));
    expect(missing).toBeInstanceOf(HubApiError);
    expect(isEndpointNotExposed(missing)).toBe(false);
  });

  it('on the full mock hub the same calls answer', async () => {
    hub = await startMockHub();
    const alice = hub.as(TOKENS.aliceWrite);
    await expect(alice.getNotificationSettings()).resolves.toHaveProperty('notifications');
    await expect(alice.listResourceGroups('acme')).resolves.not.toHaveLength(0);
    const forbidden = await rejection(hub.as(TOKENS.aliceRead).createResourceGroup('acme', { name: 'x' }));
    expect((forbidden as HubApiError).status).toBe(403);
    expect(isEndpointNotExposed(forbidden)).toBe(false);
  });
});
