import { describe, expect, it } from 'vitest';
import { receivedWebhookPayloadSchema, webhookPayloadSchema } from './payload-schema.ts';
import { samplePayload } from './sample-payload.ts';

const discussion = {
  id: '6560c0d3a1b2c3d4e5f60abc',
  num: 3,
  author: { id: '6560c0d3a1b2c3d4e5f60002' },
  url: {
    web: 'http://hub/alice/tiny-model/discussions/3',
    api: 'http://hub/api/models/alice/tiny-model/discussions/3',
  },
  title: 'Add a model card',
  isPullRequest: true,
  status: 'open' as const,
  changes: { base: 'refs/heads/main', mergeCommitId: null },
};

describe('webhook payload schema', () => {
  it('accepts a push payload in both the strict and the loose form', () => {
    expect(webhookPayloadSchema.parse(samplePayload())).toEqual(samplePayload());
    expect(receivedWebhookPayloadSchema.parse(samplePayload())).toEqual(samplePayload());
  });

  it('accepts discussion, comment, created refs and config changes', () => {
    const p = samplePayload({
      event: { action: 'create', scope: 'discussion.comment' },
      discussion,
      comment: { id: 'c1', author: { id: 'u1' }, hidden: false, content: 'LGTM', url: { web: 'http://hub/c1' } },
      updatedRefs: [{ ref: 'refs/heads/new', oldSha: null, newSha: 'abc' }],
      updatedConfig: { private: true },
    });
    expect(webhookPayloadSchema.safeParse(p).success).toBe(true);
  });

  it('strict form rejects fields the hub does not send; loose form keeps them', () => {
    const extra = { ...samplePayload(), futureField: 1, repo: { ...samplePayload().repo, stars: 5 } };
    expect(webhookPayloadSchema.safeParse(extra).success).toBe(false);
    const loose = receivedWebhookPayloadSchema.parse(extra);
    expect(loose).toMatchObject({ futureField: 1, repo: { stars: 5 } });
  });

  const newerHub = [
    ['webhook version other than 3', { ...samplePayload(), webhook: { id: 'w', version: 4 } }],
    ['unknown event action', { ...samplePayload(), event: { action: 'transfer', scope: 'repo' } }],
    ['unknown repo type', { ...samplePayload(), repo: { ...samplePayload().repo, type: 'notebook' } }],
    ['a field of another type', { ...samplePayload(), repo: { ...samplePayload().repo, private: 'no' } }],
    ['unknown discussion status', { ...samplePayload(), discussion: { ...discussion, status: 'locked' } }],
    ['event without a scope', { ...samplePayload(), event: { action: 'update' } }],
  ] as const;

  it.each(newerHub)(
    'strict form (what the mock sends) rejects %s; a receiver accepts it as sent',
    (_label, payload) => {
      expect(webhookPayloadSchema.safeParse(payload).success).toBe(false);
      const received = receivedWebhookPayloadSchema.safeParse(payload);
      expect(received.success).toBe(true);
      expect(received.data).toEqual(payload);
    },
  );

  it.each([
    ['missing repo', { event: samplePayload().event, webhook: samplePayload().webhook }],
    ['missing event', { repo: samplePayload().repo }],
    ['event not an object', { ...samplePayload(), event: 'update' }],
    ['repo null', { ...samplePayload(), repo: null }],
    ['an array', [samplePayload()]],
    ['a string', 'payload'],
    ['null', null],
  ])('both forms reject %s', (_label, payload) => {
    expect(webhookPayloadSchema.safeParse(payload).success).toBe(false);
    expect(receivedWebhookPayloadSchema.safeParse(payload).success).toBe(false);
  });
});
