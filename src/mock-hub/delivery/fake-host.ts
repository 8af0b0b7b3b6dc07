import type { Job } from '../../hub/schemas/job.ts';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import type { WebhookDelivery } from '../../hub/schemas/webhook-log.ts';
import { insertLogEntry } from './delivery-log.ts';
import type { DeliveryHost } from './host.ts';
import { stableId24 } from './ids.ts';

/** An in-memory DeliveryHost for engine tests that do not need the whole mock hub. */
export function fakeHost(hooks: { owner: string; webhook: Webhook }[], jobs: Job[] = []) {
  const savedJobs = new Map<string, Job>(jobs.map((j) => [j.id, j]));
  const logs = new Map<string, WebhookDelivery[]>();
  const host: DeliveryHost & { jobs: Map<string, Job>; hooks: typeof hooks } = {
    hooks,
    jobs: savedJobs,
    baseUrl: () => 'http://hub.test',
    webhooks: () => hooks,
    webhook: (id) => hooks.find((h) => h.webhook.id === id),
    patchWebhook(id, patch) {
      const h = hooks.find((x) => x.webhook.id === id);
      if (h) h.webhook = { ...h.webhook, ...patch };
    },
    appendLog: (id, entry) => void logs.set(id, insertLogEntry(logs.get(id) ?? [], entry)),
    logs: (id) => logs.get(id) ?? [],
    repo: (r) => (r.name.endsWith('-private') ? { private: true } : undefined),
    canSee: (user, r) => !r.name.endsWith('-private') || r.name.startsWith(`${user}/`),
    principal: (name) => ({ id: stableId24(`principal:${name}`), name, type: 'user' }),
    job: (id) => savedJobs.get(id),
    saveJob: (_ns, job) => void savedJobs.set(job.id, job),
  };
  return host;
}

export function hook(id: string, fields: Partial<Webhook>): { owner: string; webhook: Webhook } {
  return {
    owner: 'alice',
    webhook: { id: id.padStart(24, '0'), disabled: false, watched: [], domains: ['repo'], ...fields },
  };
}
