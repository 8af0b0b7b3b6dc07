import { describe, expect, it } from 'vitest';
import { HubRequestError } from './errors.ts';
import { TOKENS, apiError, withMockHub } from '../test-support/hub-harness.ts';
import { allReadable } from './tolerant-response.ts';

const hub = withMockHub();

describe('auth', () => {
  it('whoami names the user, their orgs and the token role', async () => {
    const me = await hub.as(TOKENS.aliceWrite).whoami();
    expect(me.name).toBe('alice');
    expect(me.orgs.map((o) => o.name).sort()).toEqual(['acme', 'freeorg', 'teamco']);
    expect(me.auth.accessToken?.role).toBe('write');
    expect((await hub.as(TOKENS.carolFine).whoami()).auth.accessToken?.role).toBe('fineGrained');
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expect((await apiError(hub.as('').whoami())).status).toBe(401);
    const e = await apiError(hub.as('hf_nobody_here').listWebhooks());
    expect(e.status).toBe(401);
    expect(e.message).not.toContain('hf_nobody_here');
  });

  it('answers 403 to a read token on any mutation', async () => {
    const read = hub.as(TOKENS.aliceRead);
    await expect(read.getMcpSettings()).resolves.toBeDefined();
    for (const call of [
      () => read.patchWatch({ add: [{ id: 'bob', type: 'user' }] }),
      () => read.patchNotificationSettings({ notifications: { announcements: false } }),
      () =>
        read.createWebhook({
          watched: [{ type: 'user', name: 'alice' }],
          domains: ['repo'],
          url: 'https://example.test/h',
        }),
      () => read.markNotifications({ discussionIds: [] }, { applyToAll: true }),
    ]) {
      expect((await apiError(call())).status).toBe(403);
    }
  });
});

describe('settings', () => {
  it('a notification flags PATCH changes what the next read returns', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const before = await alice.getNotificationSettings();
    const flipped = !before.notifications.daily_papers_digest;
    await alice.patchNotificationSettings({ notifications: { daily_papers_digest: flipped } });
    const after = await alice.getNotificationSettings();
    expect(after.notifications.daily_papers_digest).toBe(flipped);
    expect(after.notifications.announcements).toBe(before.notifications.announcements);
  });

  it('enabling prepaid credits needs prepaidAmount, checked before sending', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const e = await alice
      .patchNotificationSettings({ notifications: { launch_prepaid_credits: true } })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HubRequestError);
    expect((e as HubRequestError).field).toBe('prepaidAmount');
    await alice.patchNotificationSettings({ notifications: { launch_prepaid_credits: true }, prepaidAmount: '25' });
    expect((await alice.getNotificationSettings()).notifications.launch_prepaid_credits).toBe(true);
  });

  it('watch add and delete change the watch list; unknown targets are 404', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    await alice.patchWatch({
      add: [
        { id: 'bob', type: 'user' },
        { id: 'acme', type: 'org' },
      ],
    });
    let list = (await alice.getWatchList()).watched;
    expect(list).toEqual(
      expect.arrayContaining([
        { id: 'bob', type: 'user' },
        { id: 'acme', type: 'org' },
      ]),
    );
    await alice.patchWatch({ delete: [{ id: 'bob', type: 'user' }] });
    list = (await alice.getWatchList()).watched;
    expect(list).not.toContainEqual({ id: 'bob', type: 'user' });
    expect(list).toContainEqual({ id: 'acme', type: 'org' });
    expect((await apiError(alice.patchWatch({ add: [{ id: 'nobody-at-all', type: 'user' }] }))).status).toBe(404);
  });

  it('MCP settings parse', async () => {
    const mcp = await hub.as(TOKENS.bobWrite).getMcpSettings();
    expect(Array.isArray(mcp.builtInTools)).toBe(true);
    expect(Array.isArray(mcp.spaceTools)).toBe(true);
  });
});

describe('papers', () => {
  it('a claim puts the user on the author entry; claiming it again conflicts', async () => {
    const carol = hub.as(TOKENS.carolFine);
    const paper = await carol.getPaper('2501.00005');
    const entry = paper.authors.find((a) => a.name === 'Carol Danvers' && !a.user);
    expect(entry).toBeDefined();
    await expect(carol.claimPaper({ paperId: paper.id, claimAuthorId: entry!._id })).resolves.toEqual({
      ok: true,
      claimedPaperId: paper.id,
    });
    const claimed = (await carol.getPaper(paper.id)).authors.find((a) => a._id === entry!._id);
    expect(claimed?.user?.user).toBe('carol');
    expect(
      (await apiError(hub.as(TOKENS.bobWrite).claimPaper({ paperId: paper.id, claimAuthorId: entry!._id }))).status,
    ).toBe(409);
  });

  it('unknown papers are 404, and claim ids are checked before sending', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    expect((await apiError(alice.getPaper('9999.99999'))).status).toBe(404);
    expect((await apiError(alice.claimPaper({ paperId: '9999.99999' }))).status).toBe(404);
    await expect(alice.claimPaper({ paperId: '2501.00001', claimAuthorId: 'xyz' })).rejects.toBeInstanceOf(
      HubRequestError,
    );
  });
});

describe('repository usage', () => {
  it('lists the user repositories sorted by storage, filtered, limited', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const all = allReadable(await alice.listRepositoryUsage());
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(new Set(all.map((r) => r.type))).toEqual(new Set(['dataset', 'model', 'space', 'bucket', 'kernel']));
    const storage = all.map((r) => r.storage);
    expect(storage).toEqual([...storage].sort((a, b) => b - a));

    const models = allReadable(
      await alice.listRepositoryUsage({ type: 'model', limit: 3, sort: 'updatedAt', direction: 'asc' }),
    );
    expect(models.length).toBeLessThanOrEqual(3);
    expect(models.every((r) => r.type === 'model')).toBe(true);
    const dates = models.map((r) => Date.parse(r.updatedAt));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));

    const needle = all[0]!.id.split('/')[1]!.slice(0, 4).toUpperCase();
    const found = allReadable(await alice.listRepositoryUsage({ search: needle }));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((r) => r.id.toLowerCase().includes(needle.toLowerCase()))).toBe(true);
  });

  it('lists an org repositories for members only', async () => {
    const acme = allReadable(await hub.as(TOKENS.aliceWrite).listOrgRepositoryUsage('acme', { limit: 5 }));
    expect(acme.length).toBeGreaterThan(0);
    expect(acme.every((r) => r.id.startsWith('acme/'))).toBe(true);
    expect([403, 404]).toContain((await apiError(hub.as(TOKENS.bobWrite).listOrgRepositoryUsage('teamco'))).status);
    expect((await apiError(hub.as(TOKENS.aliceWrite).listOrgRepositoryUsage('no-such-org'))).status).toBe(404);
  });
});

describe('jobs', () => {
  it('lists and reads jobs of the caller; other users are refused, unknown ids 404', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const jobs = allReadable(await alice.listJobs('alice'));
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((j) => j.owner.name === 'alice')).toBe(true);
    await expect(alice.getJob('alice', jobs[0]!.id)).resolves.toEqual(jobs[0]);
    const orgJobs = allReadable(await alice.listJobs('acme'));
    expect(orgJobs.every((j) => j.owner.name === 'acme')).toBe(true);
    expect((await apiError(alice.getJob('alice', 'no-such-job'))).status).toBe(404);
    expect((await apiError(hub.as(TOKENS.bobWrite).listJobs('alice'))).status).toBe(403);
  });

  it('filters on the hub, cancels a running job, and streams a finished job’s log to its end', async () => {
    const alice = hub.as(TOKENS.aliceWrite);
    const running = allReadable(await alice.listJobs('alice', { stage: ['RUNNING'] }));
    expect(running.map((j) => j.status.stage)).toEqual(['RUNNING']);
    expect(running[0]!.owner.type).toBe('user');
    await alice.cancelJob('alice', running[0]!.id);
    expect((await alice.getJob('alice', running[0]!.id)).status.stage).toBe('CANCELED');
    expect(allReadable(await alice.listJobs('alice', { stage: ['RUNNING'] }))).toEqual([]);
    expect((await apiError(alice.cancelJob('alice', 'no-such-job'))).status).toBe(404);
    const lines: string[] = [];
    for await (const e of alice.streamJobLogs('alice', running[0]!.id)) lines.push(e.data);
    expect(lines[0]).toMatch(/^===== Job started/);
    expect(lines.at(-1)).toBe('Canceled by alice');
  });
});
