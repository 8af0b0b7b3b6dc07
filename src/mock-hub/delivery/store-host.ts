import type { RepoId } from '../../hub/schemas/repo.ts';
import type { WebhookDelivery } from '../../hub/schemas/webhook-log.ts';
import type { HubContext } from '../hub-context.ts';
import { findOrg, findUser } from '../seed/users.ts';
import { stableId24 } from './ids.ts';
import { insertLogEntry } from './delivery-log.ts';
import type { DeliveryHost } from './host.ts';

/** The delivery engine's view of the mock hub's store. Every write is its own store transaction. */
export function storeHost(hub: Pick<HubContext, 'store' | 'baseUrl'>): DeliveryHost {
  const { store } = hub;
  const findHook = (id: string) => store.state.webhooks.find((w) => w.webhook.id === id);
  const findRepo = (repo: RepoId) => store.state.repos.find((r) => r.id === repo.name && r.type === repo.type);

  // Every store transaction copies the whole state first, so finished deliveries are written in
  // batches (one transaction per turn of the event loop, or before the log is read), not one each.
  const pending: { webhookId: string; entry: WebhookDelivery }[] = [];
  const flush = () => {
    if (!pending.length) return;
    const batch = pending.splice(0);
    store.transaction((state) => {
      for (const { webhookId, entry } of batch) {
        if (findHook(webhookId))
          state.webhookLogs[webhookId] = insertLogEntry(state.webhookLogs[webhookId] ?? [], entry);
      }
    });
  };
  const flushLater = () => {
    try {
      flush();
    } catch (err) {
      console.error('mock hub: writing webhook delivery logs failed', err);
    }
  };
  return {
    baseUrl: () => hub.baseUrl,
    webhooks: () => store.state.webhooks,
    webhook: findHook,
    patchWebhook(id, patch) {
      store.transaction(() => {
        const stored = findHook(id);
        if (stored) stored.webhook = { ...stored.webhook, ...patch };
      });
    },
    appendLog(webhookId, entry) {
      pending.push({ webhookId, entry });
      if (pending.length === 1) setImmediate(flushLater);
    },
    logs(webhookId) {
      flush();
      return store.state.webhookLogs[webhookId] ?? [];
    },
    repo(repo) {
      const stored = findRepo(repo);
      return stored && { private: stored.visibility === 'private' };
    },
    canSee(user, repo) {
      const stored = findRepo(repo);
      if (!stored || stored.visibility !== 'private') return true;
      return stored.owner === user || findOrg(stored.owner)?.members[user] !== undefined;
    },
    principal(name) {
      const org = findOrg(name);
      return { id: findUser(name)?.id ?? org?.id ?? stableId24(`principal:${name}`), name, type: org ? 'org' : 'user' };
    },
    job: (id) =>
      Object.values(store.state.jobs)
        .flat()
        .find((j) => j.id === id),
    saveJob(namespace, job) {
      store.transaction((state) => {
        const jobs = state.jobs[namespace] ?? [];
        const i = jobs.findIndex((j) => j.id === job.id);
        state.jobs[namespace] = i < 0 ? [job, ...jobs] : jobs.map((j) => (j.id === job.id ? job : j));
      });
    },
  };
}
