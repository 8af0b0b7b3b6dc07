import { describe, expect, it } from 'vitest';
import { findUser } from '../seed/users.ts';
import { TOKENS, call, snapshot, testHub } from '../test-support.ts';

describe('paper claim', () => {
  it('claims the entry named like the user, then refuses a second claim', async () => {
    const hub = await testHub();
    const r = await call(hub, 'POST', '/api/settings/papers/claim', { body: { paperId: '2501.00001' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, claimedPaperId: '2501.00001' });
    const paper = await call(hub, 'GET', '/api/papers/2501.00001');
    expect(paper.body.authors.find((a: { name: string }) => a.name === 'Alice Liddell').user.user).toBe('alice');
    expect((await call(hub, 'POST', '/api/settings/papers/claim', { body: { paperId: '2501.00001' } })).status).toBe(
      409,
    );
  });

  it('claims by claimAuthorId (either case) for the caller as targetUserId', async () => {
    const hub = await testHub();
    const paper = (await call(hub, 'GET', '/api/papers/2501.00003', { token: TOKENS.carolFine })).body;
    const entry = paper.authors.find((a: { name: string }) => a.name === 'Carol Danvers');
    const carol = findUser('carol')!;
    const r = await call(hub, 'POST', '/api/settings/papers/claim', {
      token: TOKENS.carolFine,
      body: { paperId: '2501.00003', claimAuthorId: entry._id.toUpperCase(), targetUserId: carol.id },
    });
    expect(r.status).toBe(200);
  });

  it('404 unknown paper or entry, 409 entry claimed by someone else, 403 claiming for another user, 400 bad ids', async () => {
    const hub = await testHub();
    const before = snapshot(hub);
    expect((await call(hub, 'POST', '/api/settings/papers/claim', { body: { paperId: '9999.99999' } })).status).toBe(
      404,
    );
    expect(
      (
        await call(hub, 'POST', '/api/settings/papers/claim', {
          body: { paperId: '2501.00001', claimAuthorId: 'ffffffffffffffffffffffff' },
        })
      ).status,
    ).toBe(404);
    const paper = (await call(hub, 'GET', '/api/papers/2501.00003')).body;
    const bobs = paper.authors.find((a: { name: string }) => a.name === 'Bob Builder');
    const taken = await call(hub, 'POST', '/api/settings/papers/claim', {
      body: { paperId: '2501.00003', claimAuthorId: bobs._id },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toContain('already claimed');
    expect(
      (
        await call(hub, 'POST', '/api/settings/papers/claim', {
          body: { paperId: '2501.00001', targetUserId: findUser('bob')!.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(hub, 'POST', '/api/settings/papers/claim', { body: { paperId: '2501.00001', claimAuthorId: 'xyz' } }))
        .status,
    ).toBe(400);
    expect((await call(hub, 'POST', '/api/settings/papers/claim', { body: { claimAuthorId: bobs._id } })).status).toBe(
      400,
    );
    expect(
      (
        await call(hub, 'POST', '/api/settings/papers/claim', {
          token: TOKENS.aliceRead,
          body: { paperId: '2501.00001' },
        })
      ).status,
    ).toBe(403);
    expect(snapshot(hub)).toBe(before);
  });

  it('GET /api/papers/{id} 404s an unknown paper', async () => {
    const hub = await testHub();
    expect((await call(hub, 'GET', '/api/papers/0000.00000')).status).toBe(404);
  });
});
