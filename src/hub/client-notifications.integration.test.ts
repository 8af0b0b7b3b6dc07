import { describe, expect, it } from 'vitest';
import { HubRequestError } from './errors.ts';
import { TOKENS, apiError, withMockHub } from '../test-support/hub-harness.ts';
import { notificationDiscussionId } from './schemas/index.ts';
import { allReadable } from './tolerant-response.ts';

const hub = withMockHub();

describe('notifications', () => {
  it('lists a page with counts and filters', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const first = await alice.listNotifications();
    expect(first.count.all).toBeGreaterThanOrEqual(60);
    expect(first.start).toBe(0);
    expect(new Set(allReadable(first.notifications).map((n) => n.type)).size).toBeGreaterThan(1);

    const second = await alice.listNotifications({ p: 1 });
    expect(second.start).toBe(allReadable(first.notifications).length);
    expect(allReadable(second.notifications)[0]).not.toEqual(allReadable(first.notifications)[0]);

    const unread = await alice.listNotifications({ readStatus: 'unread' });
    expect(allReadable(unread.notifications).every((n) => !n.read)).toBe(true);
    expect(unread.count.view).toBe(first.count.unread);

    const models = await alice.listNotifications({ repoType: 'model' });
    expect(allReadable(models.notifications).every((n) => n.type === 'repo' && n.repo.type === 'model')).toBe(true);
  });

  it('mark-as-read by id flips one notification both ways', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const before = await alice.listNotifications({ readStatus: 'unread' });
    const target = allReadable(before.notifications)[0]!;
    const id = notificationDiscussionId(target);

    await alice.markNotifications({ discussionIds: [id], read: true });
    const afterRead = await alice.listNotifications({ readStatus: 'unread' });
    expect(afterRead.count.unread).toBe(before.count.unread - 1);
    expect(allReadable(afterRead.notifications).map(notificationDiscussionId)).not.toContain(id);

    await alice.markNotifications({ discussionIds: [id], read: false });
    expect((await alice.listNotifications({ readStatus: 'unread' })).count.unread).toBe(before.count.unread);
  });

  it('applyToAll marks exactly what matches the filters', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const before = await alice.listNotifications();
    await alice.markNotifications({ read: true }, { applyToAll: true, repoType: 'dataset' });
    expect((await alice.listNotifications({ readStatus: 'unread', repoType: 'dataset' })).count.view).toBe(0);
    const after = await alice.listNotifications();
    expect(after.count.all).toBe(before.count.all);
    expect(after.count.unread).toBeLessThanOrEqual(before.count.unread);
  });

  it('mark-as-read takes the spec defaults and non-id24 ids, and ignores ids the hub does not know', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const before = await alice.listNotifications({ readStatus: 'unread' });
    await expect(alice.markNotifications({})).resolves.toEqual({ count: 0 });
    const id = notificationDiscussionId(allReadable(before.notifications)[0]!);
    await alice.markNotifications({ discussionIds: [id, 'gone-post-slug', 'ffffffffffffffffffffffff'] });
    expect((await alice.listNotifications({ readStatus: 'unread' })).count.unread).toBe(before.count.unread - 1);
    // DELETE: id24 per the spec; an unknown id24 is ignored too.
    await expect(alice.deleteNotifications({ discussionIds: ['ffffffffffffffffffffffff'] })).resolves.toEqual({
      count: 0,
    });
  });

  it('delete removes the listed notifications only', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const before = await alice.listNotifications();
    const id = notificationDiscussionId(allReadable(before.notifications).find((n) => n.type === 'repo')!);
    await alice.deleteNotifications({ discussionIds: [id] });
    const after = await alice.listNotifications();
    expect(after.count.all).toBe(before.count.all - 1);
    expect(allReadable(after.notifications).map(notificationDiscussionId)).not.toContain(id);
  });

  it('refuses bad ids before sending, and the hub refuses them too', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const e = await alice.deleteNotifications({ discussionIds: ['not-an-id'] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HubRequestError);
    expect((e as HubRequestError).field).toBe('discussionIds[0]');

    const raw = await hub.raw('/api/notifications', {
      method: 'DELETE',
      token: TOKENS.aliceWrite,
      body: JSON.stringify({ discussionIds: ['not-an-id'] }),
    });
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { error: string }).error).toContain('discussionIds[0]');
  });

  it('reports a bad query from the hub as a 400 naming the field', async () => {
    const raw = await hub.raw('/api/notifications?readStatus=sometimes', { token: TOKENS.aliceWrite });
    expect(raw.status).toBe(400);
    expect(raw.headers.get('x-error-message')).toContain('readStatus');
  });

  it('keeps users apart', async () => {
    const bob = await hub.as(TOKENS.bobWrite).listNotifications();
    const alice = await hub.as(TOKENS.aliceWrite).listNotifications();
    expect(bob.count.all).not.toBe(alice.count.all);
    expect((await apiError(hub.as('').listNotifications())).status).toBe(401);
  });
});
