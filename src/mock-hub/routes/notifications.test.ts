import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_PAGE_SIZE, notificationDiscussionId, type Notification } from '../../hub/schemas/index.ts';
import { XSS_TITLE } from '../seed/notifications.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

const ids = (list: Notification[]) => list.map(notificationDiscussionId);

describe('GET /api/notifications', () => {
  it('pages newest first with start and counts', async () => {
    const hub = await testHub();
    const p0 = await call(hub, 'GET', '/api/notifications');
    expect(p0.status).toBe(200);
    expect(p0.body.notifications).toHaveLength(NOTIFICATIONS_PAGE_SIZE);
    expect(p0.body.start).toBe(0);
    const all = hub.store.state.notifications.alice!;
    expect(p0.body.count).toEqual({
      view: all.length,
      unread: all.filter((s) => !s.notification.read).length,
      all: all.length,
    });
    const times = p0.body.notifications.map((n: Notification) => n.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(p0.headers.get('link')).toContain('p=1');
    const p1 = await call(hub, 'GET', '/api/notifications?p=1');
    expect(p1.body.start).toBe(NOTIFICATIONS_PAGE_SIZE);
    expect(ids(p1.body.notifications)).not.toContain(ids(p0.body.notifications)[0]);
    const last = await call(hub, 'GET', `/api/notifications?p=${Math.floor(all.length / NOTIFICATIONS_PAGE_SIZE)}`);
    expect(last.headers.get('link')).toBeNull();
  });

  it('serves the XSS title verbatim as data', async () => {
    const hub = await testHub();
    const titles: string[] = [];
    for (let p = 0; p < 4; p++) {
      const r = await call(hub, 'GET', `/api/notifications?p=${p}`);
      for (const n of r.body.notifications as Notification[]) if (n.type === 'repo') titles.push(n.discussion.title);
    }
    expect(titles).toContain(XSS_TITLE);
  });

  it('applies every filter; view counts the filtered list, unread and all stay global', async () => {
    const hub = await testHub();
    const all = hub.store.state.notifications.alice!;
    const unread = await call(hub, 'GET', '/api/notifications?readStatus=unread');
    expect(unread.body.notifications.every((n: Notification) => !n.read)).toBe(true);
    expect(unread.body.count.view).toBe(all.filter((s) => !s.notification.read).length);
    expect(unread.body.count.all).toBe(all.length);

    const models = await call(hub, 'GET', '/api/notifications?repoType=model');
    expect(models.body.count.view).toBeGreaterThan(0);
    expect(models.body.notifications.every((n: Notification) => n.type === 'repo' && n.repo.type === 'model')).toBe(
      true,
    );

    const sample = all.find((s) => s.notification.type === 'repo')!.notification as Extract<
      Notification,
      { type: 'repo' }
    >;
    const byName = await call(hub, 'GET', `/api/notifications?repoName=${encodeURIComponent(sample.repo.name)}`);
    expect(
      byName.body.notifications.every((n: Notification) => n.type === 'repo' && n.repo.name === sample.repo.name),
    ).toBe(true);

    const post = all.find((s) => s.notification.type === 'post')!.notification as Extract<
      Notification,
      { type: 'post' }
    >;
    const byAuthor = await call(hub, 'GET', `/api/notifications?postAuthor=${post.post.authorName}`);
    expect(byAuthor.body.count.view).toBeGreaterThan(0);

    const paper = all.find((s) => s.notification.type === 'paper')!.notification as Extract<
      Notification,
      { type: 'paper' }
    >;
    const byPaper = await call(hub, 'GET', `/api/notifications?paperId=${paper.paperDiscussion.paperId}`);
    expect(
      byPaper.body.notifications.every(
        (n: Notification) => n.type === 'paper' && n.paperDiscussion.paperId === paper.paperDiscussion.paperId,
      ),
    ).toBe(true);

    const blog = all.find((s) => s.notification.type === 'community_blog')!.notification as Extract<
      Notification,
      { type: 'community_blog' }
    >;
    const byArticle = await call(hub, 'GET', `/api/notifications?articleId=${blog.blog.id}`);
    expect(byArticle.body.count.view).toBe(1);

    const mentions = await call(hub, 'GET', '/api/notifications?mention=mentions');
    expect(mentions.body.count.view).toBe(all.filter((s) => s.mentioned).length);
    const participating = await call(hub, 'GET', '/api/notifications?mention=participating');
    expect(participating.body.count.view).toBeGreaterThan(mentions.body.count.view - 1);
    expect(participating.body.count.view).toBeLessThan(all.length);

    const cutoff = all[10]!.notification.updatedAt;
    const older = await call(hub, 'GET', `/api/notifications?lastUpdate=${cutoff}`);
    expect(older.body.count.view).toBe(all.filter((s) => s.notification.updatedAt <= cutoff).length);
  });

  it('rejects bad query values naming the field', async () => {
    const hub = await testHub();
    for (const [q, field] of [
      ['p=-1', 'query.p'],
      ['readStatus=read', 'query.readStatus'],
      ['repoType=car', 'query.repoType'],
      ['lastUpdate=yesterday', 'query.lastUpdate'],
      ['bogus=1', 'bogus'],
      ['p=9007199254740992', 'query.p'],
    ]) {
      const r = await call(hub, 'GET', `/api/notifications?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error).toContain(field);
      expect(r.headers.get('x-error-message')).toContain(field);
    }
  });

  it('needs a known token', async () => {
    const hub = await testHub();
    expect((await call(hub, 'GET', '/api/notifications', { token: null })).status).toBe(401);
    expect((await call(hub, 'GET', '/api/notifications', { token: 'hf_nobody' })).status).toBe(401);
    expect((await call(hub, 'GET', '/api/notifications', { token: TOKENS.aliceRead })).status).toBe(200);
  });

  it('memoized answers follow every committed write, also writes by other modules', async () => {
    const hub = await testHub();
    expect((await call(hub, 'GET', '/api/notifications')).body.count.all).toBe(72);
    expect((await call(hub, 'GET', '/api/notifications')).body.count.all).toBe(72);
    hub.store.transaction((s) => {
      s.notifications.alice = s.notifications.alice!.slice(0, 3);
    });
    expect((await call(hub, 'GET', '/api/notifications')).body.count.all).toBe(3);
  });

  it('shows each user their own notifications', async () => {
    const hub = await testHub();
    const bob = await call(hub, 'GET', '/api/notifications', { token: TOKENS.bobWrite });
    expect(bob.body.count.all).toBe(hub.store.state.notifications.bob!.length);
    expect(bob.body.count.all).not.toBe(hub.store.state.notifications.alice!.length);
  });
});

describe('POST /api/notifications/mark-as-read', () => {
  it('marks listed ids read and unread again', async () => {
    const hub = await testHub();
    const unread = (await call(hub, 'GET', '/api/notifications?readStatus=unread')).body.notifications.slice(
      0,
      2,
    ) as Notification[];
    const r = await call(hub, 'POST', '/api/notifications/mark-as-read', { body: { discussionIds: ids(unread) } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ count: 2 });
    const after = await call(hub, 'GET', '/api/notifications?readStatus=unread');
    expect(ids(after.body.notifications)).not.toContain(ids(unread)[0]);
    await call(hub, 'POST', '/api/notifications/mark-as-read', { body: { discussionIds: ids(unread), read: false } });
    const again = await call(hub, 'GET', '/api/notifications?readStatus=unread');
    expect(again.body.count.unread).toBe(after.body.count.unread + 2);
  });

  it('applyToAll marks only what matches the filters', async () => {
    const hub = await testHub();
    const r = await call(hub, 'POST', '/api/notifications/mark-as-read?applyToAll=true&repoType=model');
    expect(r.status).toBe(200);
    const models = hub.store.state.notifications.alice!.filter(
      (s) => s.notification.type === 'repo' && s.notification.repo.type === 'model',
    );
    expect(models.every((s) => s.notification.read)).toBe(true);
    expect(hub.store.state.notifications.alice!.some((s) => !s.notification.read)).toBe(true);
  });

  it('applyToAll also marks the listed ids outside the filters (listed, or matching)', async () => {
    const hub = await testHub();
    const all = hub.store.state.notifications.alice!;
    const isModel = (s: (typeof all)[number]) => s.notification.type === 'repo' && s.notification.repo.type === 'model';
    const outside = all.find((s) => !isModel(s) && !s.notification.read)!;
    const r = await call(hub, 'POST', '/api/notifications/mark-as-read?applyToAll=true&repoType=model', {
      body: { discussionIds: [notificationDiscussionId(outside.notification)] },
    });
    expect(r.status).toBe(200);
    expect(outside.notification.read).toBe(true);
    expect(all.filter(isModel).every((s) => s.notification.read)).toBe(true);
    expect(all.some((s) => !s.notification.read)).toBe(true);
  });

  it('takes the spec defaults (no ids, read: true, no applyToAll) as a valid call that changes nothing', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    for (const body of [{}, { discussionIds: [], read: true }, undefined]) {
      const r = await call(hub, 'POST', '/api/notifications/mark-as-read', body === undefined ? {} : { body });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ count: 0 });
    }
    expect(snapshot(hub)).toBe(before);
  });

  it('takes any string as a discussion id and ignores ids without a notification', async () => {
    const hub = await testHub();
    const unread = hub.store.state.notifications.alice!.find((s) => !s.notification.read)!;
    const id = notificationDiscussionId(unread.notification);
    const r = await call(hub, 'POST', '/api/notifications/mark-as-read', {
      body: { discussionIds: [id, 'ffffffffffffffffffffffff', 'post-slug-not-an-id24'] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ count: 1 });
    expect(unread.notification.read).toBe(true);
  });

  it('refuses read tokens, unknown fields and missing tokens without changing anything', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const id = notificationDiscussionId(hub.store.state.notifications.alice![0]!.notification);
    expect(
      (
        await call(hub, 'POST', '/api/notifications/mark-as-read', {
          token: TOKENS.aliceRead,
          body: { discussionIds: [id] },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(hub, 'POST', '/api/notifications/mark-as-read', { body: { discussionIds: [id], extra: 1 } })).status,
    ).toBe(400);
    expect((await call(hub, 'POST', '/api/notifications/mark-as-read', { body: { discussionIds: [1] } })).status).toBe(
      400,
    );
    expect(
      (await call(hub, 'POST', '/api/notifications/mark-as-read', { token: null, body: { discussionIds: [id] } }))
        .status,
    ).toBe(401);
    expect(snapshot(hub)).toBe(before);
  });
});

describe('DELETE /api/notifications', () => {
  it('deletes listed ids', async () => {
    const hub = await testHub();
    const first = hub.store.state.notifications.alice![0]!.notification;
    const r = await call(hub, 'DELETE', '/api/notifications', {
      body: { discussionIds: [notificationDiscussionId(first)] },
    });
    expect(r.body).toEqual({ count: 1 });
    const list = await call(hub, 'GET', '/api/notifications');
    expect(list.body.count.all).toBe(71);
  });

  it('applyToAll deletes everything matching, body optional', async () => {
    const hub = await testHub();
    const r = await call(hub, 'DELETE', '/api/notifications?applyToAll=true&readStatus=unread');
    expect(r.status).toBe(200);
    const list = await call(hub, 'GET', '/api/notifications');
    expect(list.body.count.unread).toBe(0);
    expect(list.body.count.all).toBeGreaterThan(0);
  });

  it('ignores unknown ids and deletes the known ones', async () => {
    const hub = await testHub();
    const first = hub.store.state.notifications.alice![0]!.notification;
    const r = await call(hub, 'DELETE', '/api/notifications', {
      body: { discussionIds: [notificationDiscussionId(first), 'ffffffffffffffffffffffff'] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ count: 1 });
    expect(
      (await call(hub, 'DELETE', '/api/notifications', { body: { discussionIds: ['ffffffffffffffffffffffff'] } })).body,
    ).toEqual({ count: 0 });
  });

  it('validates ids (24 hex) and refuses a missing selection', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const bad = await call(hub, 'DELETE', '/api/notifications', { body: { discussionIds: ['nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('body.discussionIds[0]');
    expect((await call(hub, 'DELETE', '/api/notifications', { body: { discussionIds: [] } })).status).toBe(400);
    expect((await call(hub, 'DELETE', '/api/notifications')).status).toBe(400);
    expect(snapshot(hub)).toBe(before);
  });
});
