import { describe, expect, it } from 'vitest';
import type { Notification, NotificationList } from '../../hub/schemas/index.ts';
import { countNew, newSince } from './new-notifications.ts';

const post = (id: string, minute: number, read = false): Notification => ({
  type: 'post',
  updatedAt: new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString(),
  read,
  post: { id, slug: id, authorName: 'dave', title: id, participating: [] },
});
const list = (notifications: Notification[], view = notifications.length): NotificationList => ({
  notifications,
  count: { view, unread: 0, all: view },
  start: 0,
});
const ids = (ns: Notification[]) => ns.map((n) => (n.type === 'post' ? n.post.id : ''));

describe('new notifications', () => {
  const shown = [post('c', 30), post('b', 20), post('a', 10)];

  it('finds the ones that arrived since the list was loaded', () => {
    expect(ids(newSince(shown, [post('e', 50), post('d', 40), ...shown]))).toEqual(['e', 'd']);
    expect(newSince(shown, shown)).toEqual([]);
  });

  it('counts an old thread with new activity, not a read-state change or a deletion', () => {
    expect(ids(newSince(shown, [post('a', 45), post('c', 30), post('b', 20)]))).toEqual(['a']);
    expect(newSince(shown, [post('c', 30, true), post('b', 20, true), post('a', 10)])).toEqual([]);
    expect(newSince(shown, [post('c', 30), post('a', 10)])).toEqual([]);
  });

  it('never calls older rows new: ones that only moved up after a deletion are old', () => {
    expect(newSince(shown, [post('b', 20), post('a', 10), post('z', 5)])).toEqual([]);
  });

  it('treats timestamps as instants, whatever their precision', () => {
    const sameInstant = { ...post('c', 30), updatedAt: post('c', 30).updatedAt.replace('.000Z', 'Z') };
    expect(newSince(shown, [sameInstant, post('b', 20)])).toEqual([]);
  });

  it('everything is new in a view that was empty', () => {
    expect(countNew(list([]), list([post('a', 1)]))).toBe(1);
  });

  it('a first page made only of new ones takes the count from the view total', () => {
    const fresh = [post('x', 59), post('w', 58), post('v', 57)];
    expect(countNew(list(shown, 3), list(fresh, 30))).toBe(27);
    expect(countNew(list(shown, 3), list([post('x', 59), ...shown.slice(0, 2)], 4))).toBe(1);
  });
});
