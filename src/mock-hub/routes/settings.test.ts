import { describe, expect, it } from 'vitest';
import { McpSettings, NOTIFICATION_FLAGS, NotificationSettings } from '../../hub/schemas/index.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

describe('notification settings', () => {
  it('reads every flag, and a PATCH changes what later reads return', async () => {
    const hub = await testHub();
    const before = await call(hub, 'GET', '/api/settings/notifications');
    expect(NotificationSettings.parse(before.body).notifications).toHaveProperty(NOTIFICATION_FLAGS[0]);
    expect(before.body.notifications.announcements).toBe(true);
    const patched = await call(hub, 'PATCH', '/api/settings/notifications', {
      body: { notifications: { announcements: false, launch_prepaid_credits: true }, prepaidAmount: '25' },
    });
    expect(patched.status).toBe(200);
    const after = await call(hub, 'GET', '/api/settings/notifications');
    expect(after.body.notifications.announcements).toBe(false);
    expect(after.body.notifications.launch_prepaid_credits).toBe(true);
    expect(after.body.prepaidAmount).toBe('25');
    expect(after.body.notifications.user_follows).toBe(before.body.notifications.user_follows);
    const bob = await call(hub, 'GET', '/api/settings/notifications', { token: TOKENS.bobWrite });
    expect(bob.body.notifications.announcements).toBe(true);
  });

  it('rejects unknown flags, non-booleans, a long prepaidAmount and read tokens, changing nothing', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const cases: [unknown, string][] = [
      [{ notifications: { not_a_flag: true } }, 'not_a_flag'],
      [{ notifications: { announcements: 'yes' } }, 'body.notifications.announcements'],
      [{ notifications: { launch_prepaid_credits: true }, prepaidAmount: 'x'.repeat(25) }, 'prepaidAmount'],
      [{ notifications: { launch_prepaid_credits: true } }, 'prepaidAmount'],
      [{}, 'body.notifications'],
    ];
    for (const [body, field] of cases) {
      const r = await call(hub, 'PATCH', '/api/settings/notifications', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toContain(field);
    }
    expect(
      (
        await call(hub, 'PATCH', '/api/settings/notifications', {
          token: TOKENS.aliceRead,
          body: { notifications: { announcements: false } },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(hub, 'PATCH', '/api/settings/notifications', { token: null, body: { notifications: {} } })).status,
    ).toBe(401);
    expect(
      (
        await call(hub, 'PATCH', '/api/settings/notifications', {
          rawBody: '{not json',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect(snapshot(hub)).toBe(before);
  });

  it("lets carol's fine-grained token write her own settings", async () => {
    const hub = await testHub();
    const r = await call(hub, 'PATCH', '/api/settings/notifications', {
      token: TOKENS.carolFine,
      body: { notifications: { announcements: false } },
    });
    expect(r.status).toBe(200);
  });
});

describe('watch settings', () => {
  it('adds and deletes watched items', async () => {
    const hub = await testHub();
    const r = await call(hub, 'PATCH', '/api/settings/watch', {
      body: { add: [{ id: 'teamco', type: 'org' }], delete: [{ id: 'bob', type: 'user' }] },
    });
    expect(r.status).toBe(200);
    const now = await call(hub, 'GET', '/api/settings/watch');
    expect(now.body.watched).toContainEqual({ id: 'teamco', type: 'org' });
    expect(now.body.watched).not.toContainEqual({ id: 'bob', type: 'user' });
    const twice = await call(hub, 'PATCH', '/api/settings/watch', { body: { add: [{ id: 'teamco', type: 'org' }] } });
    expect(twice.body.watched.filter((w: { id: string }) => w.id === 'teamco')).toHaveLength(1);
  });

  it('404s unknown targets, 400s bad types, changes nothing', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    expect(
      (await call(hub, 'PATCH', '/api/settings/watch', { body: { add: [{ id: 'ghost-org', type: 'org' }] } })).status,
    ).toBe(404);
    expect(
      (await call(hub, 'PATCH', '/api/settings/watch', { body: { add: [{ id: 'acme', type: 'team' }] } })).status,
    ).toBe(400);
    expect((await call(hub, 'PATCH', '/api/settings/watch', { body: { add: [{ id: 'acme' }] } })).status).toBe(400);
    expect(
      (await call(hub, 'PATCH', '/api/settings/watch', { token: TOKENS.aliceRead, body: { add: [] } })).status,
    ).toBe(403);
    expect(snapshot(hub)).toBe(before);
  });
});

describe('GET /api/settings/mcp', () => {
  it('answers the MCP settings of the caller', async () => {
    const hub = await testHub();
    const r = await call(hub, 'GET', '/api/settings/mcp');
    expect(McpSettings.parse(r.body).spaceTools.length).toBeGreaterThan(0);
    expect((await call(hub, 'GET', '/api/settings/mcp', { token: TOKENS.carolFine })).body.spaceTools).toEqual([]);
    expect((await call(hub, 'GET', '/api/settings/mcp', { token: null })).status).toBe(401);
  });
});
