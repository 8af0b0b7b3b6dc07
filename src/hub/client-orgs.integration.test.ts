import { describe, expect, it } from 'vitest';
import { HubRequestError } from './errors.ts';
import { TOKENS, apiError, withMockHub } from '../test-support/hub-harness.ts';
import { allReadable } from './tolerant-response.ts';

// Exports only read, so one hub serves them all (the seed holds 120,000 events).
describe('audit-log export', () => {
  const hub = withMockHub({ once: true });

  it('filters by type, newest first, with a filename', async () => {
    const res = await hub.as(TOKENS.aliceWrite).exportAuditLog('acme', { q: 'type:repo.create' });
    expect(allReadable(res.events).length).toBeGreaterThan(0);
    expect(allReadable(res.events).every((e) => e.type === 'repo.create')).toBe(true);
    const times = allReadable(res.events).map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.filename).toMatch(/\.json$/);
    expect(JSON.parse(res.raw)).toHaveLength(allReadable(res.events).length);
  });

  it('caps the export at the last 100,000 events', async () => {
    const res = await hub.as(TOKENS.aliceWrite).exportAuditLog('acme');
    expect(res.events).toHaveLength(100_000);
  });

  it('filters by author and ip', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const byAlice = await alice.exportAuditLog('acme', { q: 'author:alice' });
    expect(allReadable(byAlice.events).every((e) => e.author.user === 'alice')).toBe(true);
    const ip = allReadable(byAlice.events).find((e) => e.ip)!.ip!;
    const byIp = await alice.exportAuditLog('acme', { q: `ip:${ip}` });
    expect(allReadable(byIp.events).length).toBeGreaterThan(0);
    expect(allReadable(byIp.events).every((e) => e.ip === ip)).toBe(true);
  });

  it('needs a Team or Enterprise org and a member', async () => {
    const free = await apiError(hub.as(TOKENS.aliceWrite).exportAuditLog('freeorg'));
    expect(free.status).toBe(403);
    expect(free.hubMessage.toLowerCase()).toMatch(/team|enterprise/);
    await expect(hub.as(TOKENS.aliceWrite).exportAuditLog('teamco', { q: 'type:org.create' })).resolves.toBeDefined();
    expect([403, 404]).toContain((await apiError(hub.as(TOKENS.carolFine).exportAuditLog('acme'))).status);
    expect((await apiError(hub.as(TOKENS.aliceWrite).exportAuditLog('no-such-org'))).status).toBe(404);
    await expect(hub.as(TOKENS.aliceWrite).exportAuditLog('acme', { q: 'colour:red' })).rejects.toBeInstanceOf(
      HubRequestError,
    );
  });
});

describe('token revoke', () => {
  const hub = withMockHub();

  it('cuts the token off that org only', async () => {
    const bob = hub.as(TOKENS.bobWrite);
    await expect(bob.listOrgRepositoryUsage('acme', { limit: 1 })).resolves.toBeDefined();
    await hub.as(TOKENS.aliceWrite).revokeOrgToken('acme', { token: TOKENS.bobWrite });
    expect((await apiError(bob.listOrgRepositoryUsage('acme', { limit: 1 }))).status).toBe(403);
    await expect(bob.whoami()).resolves.toMatchObject({ name: 'bob' });
    await expect(bob.listWebhooks()).resolves.toBeDefined();
  });

  it('needs an Enterprise org, an admin and a real token', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const team = await apiError(alice.revokeOrgToken('teamco', { token: TOKENS.carolFine }));
    expect(team.status).toBe(403);
    expect(team.hubMessage.toLowerCase()).toContain('enterprise');
    expect(team.message).not.toContain(TOKENS.carolFine);
    expect((await apiError(hub.as(TOKENS.bobWrite).revokeOrgToken('acme', { token: TOKENS.aliceWrite }))).status).toBe(
      403,
    );
    expect((await apiError(hub.as(TOKENS.aliceRead).revokeOrgToken('acme', { token: TOKENS.bobWrite }))).status).toBe(
      403,
    );
    await expect(alice.revokeOrgToken('acme', { token: 'nope' })).rejects.toBeInstanceOf(HubRequestError);
  });
});

describe('resource groups', () => {
  const hub = withMockHub();

  it('lists seeded groups per org', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    expect(allReadable(await alice.listResourceGroups('acme')).length).toBeGreaterThanOrEqual(2);
    expect(allReadable(await alice.listResourceGroups('teamco')).length).toBeGreaterThanOrEqual(1);
  });

  it('create, read, patch, delete', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const created = await alice.createResourceGroup('acme', { name: 'ml-platform', description: 'Platform team' });
    expect(created.name).toBe('ml-platform');
    await expect(alice.getResourceGroup('acme', created.id)).resolves.toEqual(created);

    const patched = await alice.patchResourceGroup('acme', created.id, { description: 'Renamed team' });
    expect(patched).toMatchObject({ name: 'ml-platform', description: 'Renamed team' });
    expect((await alice.getResourceGroup('acme', created.id)).description).toBe('Renamed team');

    await expect(alice.deleteResourceGroup('acme', created.id)).resolves.toEqual({ success: true });
    expect((await apiError(alice.getResourceGroup('acme', created.id))).status).toBe(404);
  });

  it('needs Team or higher, admin rights to change, and a valid name', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const free = await apiError(alice.listResourceGroups('freeorg'));
    expect(free.status).toBe(403);
    expect(free.hubMessage.toLowerCase()).toContain('team');

    const [group] = allReadable(await alice.listResourceGroups('acme'));
    const bob = hub.as(TOKENS.bobWrite);
    await expect(bob.getResourceGroup('acme', group!.id)).resolves.toMatchObject({ id: group!.id });
    expect((await apiError(bob.patchResourceGroup('acme', group!.id, { name: 'mine now' }))).status).toBe(403);
    expect((await alice.getResourceGroup('acme', group!.id)).name).toBe(group!.name);

    expect((await apiError(alice.getResourceGroup('acme', 'f'.repeat(24)))).status).toBe(404);
    const e = await alice.patchResourceGroup('acme', group!.id, { name: 'x'.repeat(201) }).catch((x: unknown) => x);
    expect((e as HubRequestError).field).toBe('name');
  });
});
