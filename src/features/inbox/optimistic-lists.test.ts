import { describe, expect, it } from 'vitest';
import type { Notification, NotificationList } from '../../hub/schemas/index.ts';
import { idIn, withoutRows, withReadState } from './optimistic-lists.ts';

const post = (id: string, read: boolean): Notification => ({
  type: 'post',
  updatedAt: '2026-01-01T00:00:00.000Z',
  read,
  post: { id, slug: id, authorName: 'dave', title: id, participating: [] },
});
const list: NotificationList = {
  notifications: [post('a', false), post('b', true), post('c', false)],
  count: { view: 3, unread: 10, all: 30 },
  start: 0,
};

describe('optimistic list edits', () => {
  it('marks the hit rows and moves the unread count by the rows that changed', () => {
    const next = withReadState(list, idIn(['a', 'b']), true);
    expect(next.notifications.map((n) => n.read)).toEqual([true, true, false]);
    expect(next.count).toEqual({ view: 3, unread: 9, all: 30 });
    expect(withReadState(list, idIn(['b']), true)).toBe(list);
    expect(withReadState(list, () => true, false).count.unread).toBe(11);
  });

  it('removes deleted rows from the list and every count', () => {
    const next = withoutRows(list, idIn(['a', 'b']));
    expect(next.notifications.map((n) => n.type === 'post' && n.post.id)).toEqual(['c']);
    expect(next.count).toEqual({ view: 1, unread: 9, all: 28 });
  });
});
