import { describe, expect, it } from 'vitest';
import { createMockHub } from '../app.ts';
import { findUser } from '../seed/users.ts';
import { storeHost } from './store-host.ts';

const entry = (id: string, second: number) => ({
  id,
  createdAt: `2026-01-01T00:00:${String(second).padStart(2, '0')}Z`,
  event: { action: 'update', scope: 'repo' },
  target: 'http://x',
  status: 200,
  error: null,
  durationMs: 1,
});

async function hubWithHook() {
  const hub = await createMockHub({ seed: false });
  const id = 'a'.repeat(24);
  hub.store.transaction((s) => {
    s.webhooks.push({
      owner: 'alice',
      webhook: { id, disabled: false, watched: [{ type: 'user', name: 'alice' }], domains: ['repo'], url: 'http://x' },
    });
    s.repos.push({
      id: 'acme/secret',
      type: 'model',
      owner: 'acme',
      visibility: 'private',
      storage: 1,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      likes: 0,
      downloads: 0,
    });
  });
  return { hub, id, host: storeHost(hub.context) };
}

describe('storeHost', () => {
  it('writes finished deliveries to the store in one transaction per batch, newest first', async () => {
    const { hub, id, host } = await hubWithHook();
    const before = hub.store.version;
    host.appendLog(id, entry('1', 1));
    host.appendLog(id, entry('3', 3));
    host.appendLog(id, entry('2', 2));
    expect(host.logs(id).map((e) => e.id)).toEqual(['3', '2', '1']);
    expect(hub.store.version).toBe(before + 1);
    expect(hub.store.state.webhookLogs[id]).toHaveLength(3);
  });

  it('flushes on its own on the next turn, and drops entries of a deleted webhook', async () => {
    const { hub, id, host } = await hubWithHook();
    host.appendLog(id, entry('1', 1));
    host.appendLog('b'.repeat(24), entry('x', 1));
    await new Promise((r) => setImmediate(r));
    expect(hub.store.state.webhookLogs[id]).toHaveLength(1);
    expect(hub.store.state.webhookLogs['b'.repeat(24)]).toBeUndefined();
  });

  it('patches webhooks, lets only owners and org members see private repos, and names principals by store ids', async () => {
    const { hub, id, host } = await hubWithHook();
    host.patchWebhook(id, { disabled: 'suspended-after-failure', lastTriggerAt: '2026-01-01T00:00:00Z' });
    expect(hub.store.state.webhooks[0]!.webhook).toMatchObject({
      disabled: 'suspended-after-failure',
      lastTriggerAt: '2026-01-01T00:00:00Z',
    });
    expect(host.repo({ type: 'model', name: 'acme/secret' })).toEqual({ private: true });
    expect(host.repo({ type: 'model', name: 'acme/unknown' })).toBeUndefined();
    expect(host.canSee('alice', { type: 'model', name: 'acme/secret' })).toBe(true); // acme admin
    expect(host.canSee('carol', { type: 'model', name: 'acme/secret' })).toBe(false);
    expect(host.canSee('carol', { type: 'model', name: 'acme/unknown' })).toBe(true);
    expect(host.principal('alice')).toEqual({ id: findUser('alice')!.id, name: 'alice', type: 'user' });
    expect(host.principal('acme')).toMatchObject({ name: 'acme', type: 'org' });
  });
});
