import { describe, expect, it } from 'vitest';
import { ResourceGroup, ResourceGroupList } from '../../hub/schemas/index.ts';
import { SEED_RESOURCE_GROUP_IDS } from '../seed/resource-groups.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

const research = `/api/organizations/acme/resource-groups/${SEED_RESOURCE_GROUP_IDS.acmeResearch}`;

describe('resource groups', () => {
  it('lists, reads, creates, patches and deletes', async () => {
    const hub = await testHub();
    const list = ResourceGroupList.parse((await call(hub, 'GET', '/api/organizations/acme/resource-groups')).body);
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(ResourceGroup.parse((await call(hub, 'GET', research, { token: TOKENS.bobWrite })).body).name).toBe(
      'Research',
    );

    const created = await call(hub, 'POST', '/api/organizations/acme/resource-groups', {
      body: { name: 'Eval', description: 'Evaluation' },
    });
    expect(created.status).toBe(200);
    const id = ResourceGroup.parse(created.body).id;
    const patched = await call(hub, 'PATCH', `/api/organizations/acme/resource-groups/${id}`, {
      body: { name: 'Evaluation' },
    });
    expect(patched.body).toMatchObject({ name: 'Evaluation', description: 'Evaluation' });
    expect((await call(hub, 'GET', `/api/organizations/acme/resource-groups/${id}`)).body.name).toBe('Evaluation');
    expect((await call(hub, 'DELETE', `/api/organizations/acme/resource-groups/${id}`)).body).toEqual({
      success: true,
    });
    expect((await call(hub, 'GET', `/api/organizations/acme/resource-groups/${id}`)).status).toBe(404);
  });

  it('plan gate names the plan; admin role and write token needed to change', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    const free = await call(hub, 'GET', '/api/organizations/freeorg/resource-groups');
    expect(free.status).toBe(403);
    expect(free.body.error).toContain('Team plan or higher');
    expect((await call(hub, 'GET', '/api/organizations/teamco/resource-groups')).body).toHaveLength(1);
    expect((await call(hub, 'PATCH', research, { token: TOKENS.bobWrite, body: { name: 'x' } })).status).toBe(403);
    expect((await call(hub, 'PATCH', research, { token: TOKENS.aliceRead, body: { name: 'x' } })).status).toBe(403);
    expect(
      (
        await call(hub, 'DELETE', `/api/organizations/teamco/resource-groups/${SEED_RESOURCE_GROUP_IDS.teamcoCore}`, {
          token: TOKENS.carolFine,
        })
      ).status,
    ).toBe(403);
    expect((await call(hub, 'GET', research, { token: TOKENS.carolFine })).status).toBe(403);
    expect(snapshot(hub)).toBe(before);
  });

  it('400 on limits and unknown fields, 404 on unknown or foreign ids, changing nothing', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    for (const [body, field] of [
      [{ name: '' }, 'body.name'],
      [{ name: 'x'.repeat(201) }, 'body.name'],
      [{ description: 'x'.repeat(501) }, 'body.description'],
      [{ users: [] }, 'users'],
    ] as const) {
      const r = await call(hub, 'PATCH', research, { body });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(field);
    }
    expect((await call(hub, 'POST', '/api/organizations/acme/resource-groups', { body: {} })).status).toBe(400);
    expect((await call(hub, 'GET', '/api/organizations/acme/resource-groups/ffffffffffffffffffffffff')).status).toBe(
      404,
    );
    expect(
      (await call(hub, 'GET', `/api/organizations/acme/resource-groups/${SEED_RESOURCE_GROUP_IDS.teamcoCore}`)).status,
    ).toBe(404);
    expect((await call(hub, 'DELETE', '/api/organizations/acme/resource-groups/ffffffffffffffffffffffff')).status).toBe(
      404,
    );
    expect(snapshot(hub)).toBe(before);
  });
});
