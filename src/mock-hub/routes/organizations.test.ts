import { describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_LIMIT, AuditLogEvent } from '../../hub/schemas/index.ts';
import { SEED_RESOURCE_GROUP_IDS } from '../seed/resource-groups.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

describe('POST /api/organizations/{name}/settings/tokens/revoke', () => {
  it("revokes a member token for that org only: 403 there, still 200 on the user's endpoints and other orgs", async () => {
    const hub = await testHub();
    expect(
      (await call(hub, 'GET', '/api/organizations/acme/settings/repositories', { token: TOKENS.aliceRead })).status,
    ).toBe(200);
    const r = await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', {
      body: { token: TOKENS.aliceRead },
    });
    expect(r.status).toBe(200);
    const denied = await call(hub, 'GET', '/api/organizations/acme/settings/repositories', { token: TOKENS.aliceRead });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toContain('revoked');
    expect(
      (await call(hub, 'GET', '/api/organizations/teamco/settings/repositories', { token: TOKENS.aliceRead })).status,
    ).toBe(200);
    expect((await call(hub, 'GET', '/api/notifications', { token: TOKENS.aliceRead })).status).toBe(200);
    expect((await call(hub, 'GET', '/api/organizations/acme/settings/repositories')).status).toBe(200);
    expect(JSON.stringify(hub.store.state)).not.toContain(TOKENS.aliceRead);
    // A second revoke is a no-op.
    expect(
      (await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', { body: { token: TOKENS.aliceRead } }))
        .status,
    ).toBe(200);
  });

  it('needs Enterprise, the admin role and a write token; 404 for unknown tokens; 400 for malformed', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const team = await call(hub, 'POST', '/api/organizations/teamco/settings/tokens/revoke', {
      body: { token: TOKENS.carolFine },
    });
    expect(team.status).toBe(403);
    expect(team.body.error).toContain('Enterprise');
    const bob = await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', {
      token: TOKENS.bobWrite,
      body: { token: TOKENS.aliceWrite },
    });
    expect(bob.status).toBe(403);
    expect(bob.body.error).toContain('admin');
    expect(
      (
        await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', {
          token: TOKENS.aliceRead,
          body: { token: TOKENS.bobWrite },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', {
          body: { token: 'hf_unknown_token' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', { body: { token: TOKENS.carolFine } }))
        .status,
    ).toBe(404);
    const malformed = await call(hub, 'POST', '/api/organizations/acme/settings/tokens/revoke', {
      body: { token: 'abc' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toContain('body.token');
    expect(
      (await call(hub, 'POST', '/api/organizations/ghost/settings/tokens/revoke', { body: { token: TOKENS.bobWrite } }))
        .status,
    ).toBe(404);
    expect(snapshot(hub)).toBe(before);
  });
});

describe('GET /api/organizations/{name}/audit-log/export', () => {
  it('exports newest first, at most 100,000 events, as an attachment', async () => {
    const hub = await testHub();
    const r = await call(hub, 'GET', '/api/organizations/acme/audit-log/export');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="acme-audit-log-2026-11-02.json"');
    const events = r.body as AuditLogEvent[];
    expect(events).toHaveLength(AUDIT_EXPORT_LIMIT);
    for (const e of [events[0], events[50_000], events.at(-1)]) AuditLogEvent.parse(e);
    expect(events[0]!.createdAt > events.at(-1)!.createdAt).toBe(true);
  });

  it('filters by author, ip and type, terms ANDed', async () => {
    const hub = await testHub();
    const byType = (await call(hub, 'GET', '/api/organizations/acme/audit-log/export?q=type:repo.create'))
      .body as AuditLogEvent[];
    expect(byType.length).toBeGreaterThan(100);
    expect(byType.every((e) => e.type === 'repo.create')).toBe(true);
    const ip = byType.find((e) => e.ip)!.ip!;
    const both = (
      await call(
        hub,
        'GET',
        `/api/organizations/acme/audit-log/export?q=${encodeURIComponent(`author:alice type:repo.create`)}`,
      )
    ).body as AuditLogEvent[];
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((e) => e.author.user === 'alice' && e.type === 'repo.create')).toBe(true);
    const byIp = (await call(hub, 'GET', `/api/organizations/acme/audit-log/export?q=ip:${encodeURIComponent(ip)}`))
      .body as AuditLogEvent[];
    expect(byIp.length).toBeGreaterThan(0);
    expect(byIp.every((e) => e.ip === ip)).toBe(true);
    expect((await call(hub, 'GET', '/api/organizations/acme/audit-log/export?q=author:nobody')).body).toEqual([]);
  });

  it('shows events recorded by mutations first', async () => {
    const hub = await testHub();
    await call(hub, 'DELETE', `/api/organizations/acme/resource-groups/${SEED_RESOURCE_GROUP_IDS.acmeProduction}`);
    const events = (await call(hub, 'GET', '/api/organizations/acme/audit-log/export?q=type:resource_group.delete'))
      .body as AuditLogEvent[];
    expect(events[0]).toMatchObject({ type: 'resource_group.delete', author: { user: 'alice' } });
    AuditLogEvent.parse(events[0]);
  });

  it('needs Team or Enterprise and the admin role; 400 for a bad q', async () => {
    const hub = await testHub();
    const free = await call(hub, 'GET', '/api/organizations/freeorg/audit-log/export');
    expect(free.status).toBe(403);
    expect(free.body.error).toContain('Team or Enterprise');
    expect((await call(hub, 'GET', '/api/organizations/teamco/audit-log/export?q=type:org.create')).status).toBe(200);
    expect(
      (await call(hub, 'GET', '/api/organizations/acme/audit-log/export', { token: TOKENS.bobWrite })).status,
    ).toBe(403);
    expect(
      (await call(hub, 'GET', '/api/organizations/acme/audit-log/export', { token: TOKENS.carolFine })).status,
    ).toBe(403);
    expect((await call(hub, 'GET', '/api/organizations/acme/audit-log/export', { token: null })).status).toBe(401);
    expect((await call(hub, 'GET', '/api/organizations/ghost/audit-log/export')).status).toBe(404);
    const bad = await call(hub, 'GET', '/api/organizations/acme/audit-log/export?q=color:red');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('query.q');
    expect((await call(hub, 'GET', '/api/organizations/acme/audit-log/export?q=type:repo.explode')).status).toBe(400);
  });
});
