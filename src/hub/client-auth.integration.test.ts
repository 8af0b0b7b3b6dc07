import { describe, expect, it } from 'vitest';
import type { HubClient } from './client.ts';
import { TOKENS, apiError, withMockHub } from '../test-support/hub-harness.ts';

const ID = 'a'.repeat(24);
const hook = {
  watched: [{ type: 'user' as const, name: 'alice' }],
  domains: ['repo' as const],
  url: 'https://example.test/h',
};

/** One valid call per client method; `write` marks the mutations. */
const calls: { name: string; write: boolean; run: (c: HubClient) => Promise<unknown> }[] = [
  { name: 'whoami', write: false, run: (c) => c.whoami() },
  { name: 'listNotifications', write: false, run: (c) => c.listNotifications() },
  { name: 'markNotifications', write: true, run: (c) => c.markNotifications({ discussionIds: [ID] }) },
  { name: 'deleteNotifications', write: true, run: (c) => c.deleteNotifications({ discussionIds: [ID] }) },
  { name: 'getNotificationSettings', write: false, run: (c) => c.getNotificationSettings() },
  {
    name: 'patchNotificationSettings',
    write: true,
    run: (c) => c.patchNotificationSettings({ notifications: { announcements: true } }),
  },
  { name: 'getWatchList', write: false, run: (c) => c.getWatchList() },
  { name: 'patchWatch', write: true, run: (c) => c.patchWatch({ add: [{ id: 'bob', type: 'user' }] }) },
  { name: 'getMcpSettings', write: false, run: (c) => c.getMcpSettings() },
  { name: 'getPaper', write: false, run: (c) => c.getPaper('2501.00001') },
  { name: 'claimPaper', write: true, run: (c) => c.claimPaper({ paperId: '2501.00001' }) },
  { name: 'listRepositoryUsage', write: false, run: (c) => c.listRepositoryUsage() },
  { name: 'listOrgRepositoryUsage', write: false, run: (c) => c.listOrgRepositoryUsage('acme') },
  { name: 'listWebhooks', write: false, run: (c) => c.listWebhooks() },
  { name: 'getWebhook', write: false, run: (c) => c.getWebhook(ID) },
  { name: 'createWebhook', write: true, run: (c) => c.createWebhook(hook) },
  { name: 'updateWebhook', write: true, run: (c) => c.updateWebhook(ID, hook) },
  { name: 'deleteWebhook', write: true, run: (c) => c.deleteWebhook(ID) },
  { name: 'webhookAction', write: true, run: (c) => c.webhookAction(ID, 'disable') },
  { name: 'listWebhookLogs', write: false, run: (c) => c.listWebhookLogs(ID) },
  { name: 'getWebhookDelivery', write: false, run: (c) => c.getWebhookDelivery(ID, 'log') },
  { name: 'replayWebhookDelivery', write: true, run: (c) => c.replayWebhookDelivery(ID, 'log') },
  { name: 'sendWebhookTestEvent', write: true, run: (c) => c.sendWebhookTestEvent(ID, { sample: 'repo-create' }) },
  { name: 'revokeOrgToken', write: true, run: (c) => c.revokeOrgToken('acme', { token: TOKENS.bobWrite }) },
  { name: 'exportAuditLog', write: false, run: (c) => c.exportAuditLog('acme', { q: 'type:org.create' }) },
  { name: 'listResourceGroups', write: false, run: (c) => c.listResourceGroups('acme') },
  { name: 'createResourceGroup', write: true, run: (c) => c.createResourceGroup('acme', { name: 'g' }) },
  { name: 'getResourceGroup', write: false, run: (c) => c.getResourceGroup('acme', ID) },
  { name: 'patchResourceGroup', write: true, run: (c) => c.patchResourceGroup('acme', ID, { name: 'g' }) },
  { name: 'deleteResourceGroup', write: true, run: (c) => c.deleteResourceGroup('acme', ID) },
  { name: 'listJobs', write: false, run: (c) => c.listJobs('alice') },
  { name: 'getJob', write: false, run: (c) => c.getJob('alice', 'x') },
  { name: 'cancelJob', write: true, run: (c) => c.cancelJob('alice', 'x') },
  { name: 'listModels', write: false, run: (c) => c.listModels({ author: 'alice' }) },
  { name: 'listModelFiles', write: false, run: (c) => c.listModelFiles('alice/x', 'main') },
  { name: 'getModelInfo', write: false, run: (c) => c.getModelInfo('alice/x', 'main') },
  {
    name: 'streamJobLogs',
    write: false,
    run: async (c) => {
      for await (const e of c.streamJobLogs('alice', 'x')) void e;
    },
  },
];

const hub = withMockHub({ once: true });

describe('every endpoint', () => {
  it('has a call in this table', () => {
    const methods = Object.keys(hub.as(TOKENS.aliceWrite)).sort();
    expect(calls.map((c) => c.name).sort()).toEqual(methods);
  });

  it.each(calls)('$name answers 401 to an unknown token, without echoing it', async ({ run }) => {
    const e = await apiError(run(hub.as('hf_not_a_real_token')));
    expect(e.status).toBe(401);
    expect(e.hubMessage).not.toBe('');
    expect(e.message).not.toContain('hf_not_a_real_token');
  });

  it.each(calls.filter((c) => c.write))('$name answers 403 to a read token', async ({ run }) => {
    expect((await apiError(run(hub.as(TOKENS.aliceRead)))).status).toBe(403);
  });
});
