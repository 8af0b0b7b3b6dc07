import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, testHub } from '../test-support.ts';
import { REPO_TYPES } from '../../hub/schemas/index.ts';
import { HubState } from '../store/state-schema.ts';
import { initialState } from './initial-state.ts';
import { XSS_TITLE } from './notifications.ts';
import { DEMO_TOKENS, ORGS, TOKENS } from './users.ts';

describe('seed', () => {
  const state = initialState();

  it('matches the state schema and is deterministic', () => {
    HubState.parse(state);
    expect(JSON.stringify(initialState())).toBe(JSON.stringify(state));
  });

  it('gives alice >= 60 notifications of all four types, read and unread, with the XSS title', () => {
    const list = state.notifications.alice!.map((s) => s.notification);
    expect(list.length).toBeGreaterThanOrEqual(60);
    expect(new Set(list.map((n) => n.type))).toEqual(new Set(['paper', 'repo', 'post', 'community_blog']));
    expect(list.some((n) => n.read) && list.some((n) => !n.read)).toBe(true);
    expect(list.some((n) => n.type === 'repo' && n.discussion.title === XSS_TITLE)).toBe(true);
    expect(state.notifications.bob!.length).toBeGreaterThan(0);
    expect(state.notifications.carol!.length).toBeGreaterThan(0);
  });

  it('gives alice >= 40 repos over all five types, webhooks with a URL and a job', () => {
    const repos = state.repos.filter((r) => r.owner === 'alice');
    expect(repos.length).toBeGreaterThanOrEqual(40);
    expect(new Set(repos.map((r) => r.type)).size).toBe(REPO_TYPES.length);
    const hooks = state.webhooks.filter((w) => w.owner === 'alice').map((w) => w.webhook);
    expect(hooks.some((w) => w.url) && hooks.some((w) => w.job)).toBe(true);
  });

  it('refers only to repos that exist (watch list, webhooks)', () => {
    const ids = new Set(state.repos.map((r) => r.id));
    for (const w of Object.values(state.watch).flat()) if (w.type === 'repo') expect(ids.has(w.id), w.id).toBe(true);
    for (const h of state.webhooks)
      for (const w of h.webhook.watched)
        if (!['user', 'org'].includes(w.type)) expect(ids.has(w.name), w.name).toBe(true);
  });

  it('has the orgs, plans, members, tokens and resource groups tests rely on', () => {
    expect(ORGS.map((o) => [o.name, o.plan, o.members.alice])).toEqual([
      ['acme', 'enterprise', 'admin'],
      ['teamco', 'team', 'admin'],
      ['freeorg', 'free', 'admin'],
    ]);
    expect(ORGS[0]!.members.bob).toBe('read');
    expect(DEMO_TOKENS.map((t) => `${t.token}:${t.user}:${t.role}`)).toEqual([
      'hf_alice_write:alice:write',
      'hf_alice_read:alice:read',
      'hf_bob_write:bob:write',
      'hf_carol_fine:carol:fineGrained',
    ]);
    expect(state.resourceGroups.acme!.length).toBeGreaterThanOrEqual(2);
    expect(state.resourceGroups.teamco!.length).toBeGreaterThanOrEqual(1);
    const unclaimed = state.papers.flatMap((p) => p.authors.filter((a) => !a.user).map((a) => a.name));
    for (const name of ['Alice Liddell', 'Bob Builder', 'Carol Danvers']) expect(unclaimed).toContain(name);
  });

  it('can be turned off: seed: false starts empty', async () => {
    const hub = await testHub({ seed: false });
    expect((await call(hub, 'GET', '/api/notifications')).body.count.all).toBe(0);
    expect((await call(hub, 'GET', '/api/settings/webhooks')).body).toEqual([]);
  });

  it("the README's token table lists exactly the demo tokens, by user and role", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const rows = [...readme.matchAll(/^\| `(hf_\w+)` \| (\w+)[^|]*\| (\w+)/gm)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
    expect(rows).toEqual(DEMO_TOKENS.map((t) => `${t.token}:${t.user}:${t.role}`));
    expect(DEMO_TOKENS.map((t) => t.token)).toEqual(Object.values(TOKENS));
  });
});
