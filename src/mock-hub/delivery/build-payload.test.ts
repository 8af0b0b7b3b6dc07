import { describe, expect, it } from 'vitest';
import { receivedWebhookPayloadSchema, webhookPayloadSchema } from '../../webhooks/payload-schema.ts';
import { buildPayload, repoUrls } from './build-payload.ts';
import { MockEvent } from './event-schema.ts';

const facts = {
  id: 'a'.repeat(24),
  private: true,
  ownerId: 'b'.repeat(24),
  actorId: 'e'.repeat(24),
  headSha: 'c'.repeat(40),
  previousSha: 'd'.repeat(40),
};

describe('buildPayload', () => {
  it('builds a push payload with refs, head sha, URLs and the webhook id', () => {
    const event = MockEvent.parse({
      repo: { type: 'dataset', name: 'acme/data' },
      scope: 'repo.content',
      action: 'update',
    });
    const p = buildPayload(event, facts, 'f'.repeat(24), 'http://hub.test');
    expect(p).toEqual({
      event: { action: 'update', scope: 'repo.content' },
      repo: {
        type: 'dataset',
        name: 'acme/data',
        id: facts.id,
        private: true,
        headSha: facts.headSha,
        url: { web: 'http://hub.test/datasets/acme/data', api: 'http://hub.test/api/datasets/acme/data' },
        owner: { id: facts.ownerId },
      },
      webhook: { id: 'f'.repeat(24), version: 3 },
      updatedRefs: [{ ref: 'refs/heads/main', oldSha: facts.previousSha, newSha: facts.headSha }],
    });
    expect(webhookPayloadSchema.safeParse(p).success).toBe(true);
  });

  it('adds discussion and comment for discussion events, and updatedConfig for config events', () => {
    const event = MockEvent.parse({
      repo: { type: 'model', name: 'acme/m' },
      scope: 'discussion.comment',
      action: 'create',
      discussion: { num: 7, title: 'Bug', isPullRequest: true, comment: { content: 'Hi' } },
    });
    const p = buildPayload(event, facts, 'f'.repeat(24), 'http://hub.test');
    expect(p.discussion).toMatchObject({
      num: 7,
      title: 'Bug',
      isPullRequest: true,
      status: 'open',
      url: { web: 'http://hub.test/acme/m/discussions/7' },
      changes: { base: 'refs/heads/main' },
    });
    expect(p.comment).toMatchObject({ content: 'Hi', hidden: false, author: { id: facts.actorId } });
    expect(p.discussion!.author).toEqual({ id: facts.actorId });
    expect(p.repo.owner).toEqual({ id: facts.ownerId });
    expect(p.updatedRefs).toBeUndefined();
    const config = buildPayload(
      MockEvent.parse({ repo: { type: 'model', name: 'acme/m' }, scope: 'repo.config', action: 'update' }),
      facts,
      'f'.repeat(24),
      'http://hub.test',
    );
    expect(config.updatedConfig).toEqual({ private: true });
    expect(receivedWebhookPayloadSchema.safeParse(config).success).toBe(true);
  });

  it('refuses to build a payload the schema would reject', () => {
    const event = MockEvent.parse({ repo: { type: 'model', name: 'acme/m' }, scope: 'repo', action: 'create' });
    expect(() => buildPayload(event, { ...facts, id: '' }, 'f'.repeat(24), 'http://hub.test')).toThrow();
  });

  it('puts each repo type at its web path', () => {
    expect(repoUrls('http://h', 'model', 'a/b').web).toBe('http://h/a/b');
    expect(repoUrls('http://h', 'space', 'a/b').web).toBe('http://h/spaces/a/b');
    expect(repoUrls('http://h', 'kernel', 'a/b').api).toBe('http://h/api/kernels/a/b');
  });
});

describe('MockEvent', () => {
  it('requires a discussion for discussion scopes and a comment for comment scope', () => {
    expect(
      MockEvent.safeParse({ repo: { type: 'model', name: 'a/b' }, scope: 'discussion', action: 'create' }).success,
    ).toBe(false);
    expect(
      MockEvent.safeParse({
        repo: { type: 'model', name: 'a/b' },
        scope: 'discussion.comment',
        action: 'create',
        discussion: { num: 1 },
      }).success,
    ).toBe(false);
    expect(
      MockEvent.safeParse({
        repo: { type: 'model', name: 'a/b' },
        scope: 'discussion',
        action: 'create',
        discussion: { num: 1 },
      }).success,
    ).toBe(true);
    expect(MockEvent.safeParse({ repo: { type: 'user', name: 'a/b' }, scope: 'repo', action: 'create' }).success).toBe(
      false,
    );
  });
});
