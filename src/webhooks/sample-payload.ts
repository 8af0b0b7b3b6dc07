import type { WebhookPayload } from './payload-schema.ts';

/** A repo-content push as the hub sends it; used by tests and the load bench. */
export function samplePayload(overrides: Partial<WebhookPayload> = {}): WebhookPayload {
  return {
    event: { action: 'update', scope: 'repo.content' },
    repo: {
      type: 'model',
      name: 'alice/tiny-model',
      id: '6560c0d3a1b2c3d4e5f60718',
      private: false,
      headSha: 'c379e821c9c95d613899e8c4343e4bfee2b0c000',
      url: { web: 'http://127.0.0.1:4000/alice/tiny-model', api: 'http://127.0.0.1:4000/api/models/alice/tiny-model' },
      owner: { id: '6560c0d3a1b2c3d4e5f60001' },
    },
    webhook: { id: '6560c0d3a1b2c3d4e5f6ffff', version: 3 },
    updatedRefs: [
      {
        ref: 'refs/heads/main',
        oldSha: 'ce9a4674fa833a68d5a73ec355f0ea95eedd60b7',
        newSha: 'c379e821c9c95d613899e8c4343e4bfee2b0c000',
      },
    ],
    ...overrides,
  };
}
