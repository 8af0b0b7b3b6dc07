import { describe, expect, it } from 'vitest';
import type { Notification, NotificationFilters, NotificationList } from '../../hub/schemas/index.ts';
import { collectUnreadIds } from './collect-unread.ts';

const post = (i: number): Notification => ({
  type: 'post',
  updatedAt: new Date(Date.UTC(2026, 10, 1, 12, 0, 100 - i)).toISOString(),
  read: false,
  post: { id: `p${i}`, slug: `p${i}`, authorName: 'dave', title: '', participating: [] },
});

/** A hub of `n` unread posts, 20 per page, newest first, honouring lastUpdate. */
function hub(n: number) {
  const all = Array.from({ length: n }, (_, i) => post(i));
  const calls: NotificationFilters[] = [];
  const list = async (q: NotificationFilters): Promise<NotificationList> => {
    calls.push(q);
    const view = all.filter((x) => !q.lastUpdate || x.updatedAt <= q.lastUpdate);
    const p = Number(q.p ?? 0);
    return {
      notifications: view.slice(p * 20, p * 20 + 20),
      count: { view: view.length, unread: n, all: n },
      start: p * 20,
    };
  };
  return { all, calls, list };
}

describe('collectUnreadIds', () => {
  it('reads every page of the unread view with the same filters and returns each id once', async () => {
    const h = hub(45);
    const ids = await collectUnreadIds(h.list, { repoType: 'model', mention: 'participating' });
    expect(ids).toEqual(h.all.map((x) => (x.type === 'post' ? x.post.id : '')));
    expect(h.calls.map((c) => c.p)).toEqual([0, 1, 2]);
    for (const c of h.calls)
      expect(c).toMatchObject({ repoType: 'model', mention: 'participating', readStatus: 'unread' });
    // Later pages are pinned at the newest update seen, so arrivals cannot shift them.
    expect(h.calls[1]!.lastUpdate).toBe(h.all[0]!.updatedAt);
  });

  it('stops at once when there are more than the limit (no undo offered)', async () => {
    const h = hub(30);
    expect(await collectUnreadIds(h.list, {}, 25)).toBeNull();
    expect(h.calls).toHaveLength(1);
  });

  it('an empty view needs one call', async () => {
    const h = hub(0);
    expect(await collectUnreadIds(h.list, {})).toEqual([]);
    expect(h.calls).toHaveLength(1);
  });
});
