import { describe, expect, it } from 'vitest';
import { HubRepoList, Job, Whoami } from '../../hub/schemas/index.ts';
import { SEED_JOB_IDS } from '../seed/webhooks.ts';
import { TOKENS, call, testHub } from '../test-support.ts';

describe('GET /api/whoami-v2', () => {
  it('answers the real hub shape with orgs, plans and token role', async () => {
    const hub = await testHub();
    const me = Whoami.parse((await call(hub, 'GET', '/api/whoami-v2')).body);
    expect(me.name).toBe('alice');
    expect(me.orgs.map((o) => [o.name, o.roleInOrg, o.plan])).toEqual([
      ['acme', 'admin', 'enterprise'],
      ['teamco', 'admin', 'team'],
      ['freeorg', 'admin', 'free'],
    ]);
    expect(me.auth.accessToken?.role).toBe('write');
    const carol = (await call(hub, 'GET', '/api/whoami-v2', { token: TOKENS.carolFine })).body;
    expect(carol.auth.accessToken.role).toBe('fineGrained');
    expect(carol.auth.accessToken.fineGrained.scoped.length).toBeGreaterThan(0);
    const unauth = await call(hub, 'GET', '/api/whoami-v2', { token: 'hf_bogus' });
    expect(unauth.status).toBe(401);
    expect(unauth.body.error).toBe('Invalid credentials in Authorization header');
  });
});

describe('jobs', () => {
  it('lists and reads jobs of the user and of member orgs', async () => {
    const hub = await testHub();
    const mine = (await call(hub, 'GET', '/api/jobs/alice')).body as Job[];
    expect(mine.map((j) => Job.parse(j).id)).toContain(SEED_JOB_IDS.aliceCompleted);
    expect((await call(hub, 'GET', `/api/jobs/alice/${SEED_JOB_IDS.aliceRunning}`)).body.status.stage).toBe('RUNNING');
    expect((await call(hub, 'GET', '/api/jobs/acme', { token: TOKENS.bobWrite })).status).toBe(200);
    expect((await call(hub, 'GET', '/api/jobs/alice', { token: TOKENS.bobWrite })).status).toBe(403);
    expect((await call(hub, 'GET', '/api/jobs/acme', { token: TOKENS.carolFine })).status).toBe(403);
    expect((await call(hub, 'GET', '/api/jobs/nobody')).status).toBe(404);
    expect((await call(hub, 'GET', '/api/jobs/alice/ffffffffffffffffffffffff')).status).toBe(404);
  });
});

describe('repo listings', () => {
  it('lists models, datasets and spaces by author; private ones only for members', async () => {
    const hub = await testHub();
    const anon = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=alice', { token: null })).body);
    const mine = HubRepoList.parse((await call(hub, 'GET', '/api/models?author=alice')).body);
    expect(anon.every((m) => !m.private && m.author === 'alice')).toBe(true);
    expect(mine.length).toBeGreaterThan(anon.length);
    expect((await call(hub, 'GET', '/api/datasets?author=acme&limit=2', { token: TOKENS.bobWrite })).body).toHaveLength(
      2,
    );
    const spaces = HubRepoList.parse((await call(hub, 'GET', '/api/spaces?author=alice&full=true')).body);
    expect(spaces.every((s) => s.id.startsWith('alice/'))).toBe(true);
    expect((await call(hub, 'GET', '/api/models', { token: 'hf_bogus' })).status).toBe(401);
  });
});
