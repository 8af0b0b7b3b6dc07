import type { WebhookDelivery } from '../../hub/schemas/webhook-log.ts';
import type { Webhook } from '../../hub/schemas/webhook.ts';
import type { WebhookPayload } from '../../webhooks/payload-schema.ts';
import { buildPayload, type RepoFacts } from './build-payload.ts';
import { replayablePayload, requestRecord } from './delivery-log.ts';
import type { MockEvent, MockEventResult } from './event-schema.ts';
import { FailureTracker, SUSPEND_AFTER_FAILURES } from './failure-tracker.ts';
import type { DeliveryHost } from './host.ts';
import { newId24, newSha, stableId24 } from './ids.ts';
import { JobRunner } from './job-runner.ts';
import type { JobTiming } from './job-switches.ts';
import { templateFromJob, templateFromWebhookJob } from './job-template.ts';
import { KeyedLimiter } from './limiter.ts';
import { matchingWebhooks } from './matching.ts';
import { DELIVERY_TIMEOUT_MS, sendPayload, type SendResult } from './send.ts';

export interface DeliveryEngineOptions {
  timeoutMs?: number;
  /** Deliveries in flight per webhook; more wait their turn. */
  concurrencyPerWebhook?: number;
  failureThreshold?: number;
  jobTiming?: Partial<JobTiming>;
  now?: () => Date;
}

interface Outcome extends SendResult {
  target: string;
  /** The job a job webhook's delivery started. */
  jobId?: string;
}

/** How a delivery came about, beyond a hub event: a replay of a logged one, or a test event. */
interface Origin {
  replayOf?: string;
  test?: boolean;
}

export interface DeliveryEngine {
  /**
   * Matches the event and starts its deliveries without waiting for them. `actor` is the user who
   * made the event happen (defaults to the repo owner).
   */
  emit(event: MockEvent, actor?: string): MockEventResult;
  /** Newest first, each with its request and response. */
  logs(webhookId: string): WebhookDelivery[];
  /**
   * Delivers `event` to this one webhook, whatever it watches (the "Send test event" button), and
   * waits for it; undefined when the webhook is unknown.
   */
  sendTest(webhookId: string, event: MockEvent): Promise<{ logId: string; status: number } | undefined>;
  /** Re-sends a logged payload and waits for it; undefined when the webhook or log entry is unknown. */
  replay(webhookId: string, logId: string): Promise<{ status: number } | undefined>;
  /** Whether the logged delivery kept its whole payload (payloads over the limit are cut). */
  canReplay(webhookId: string, logId: string): boolean;
  /** Resolves once no delivery is in flight (tests, shutdown). */
  idle(): Promise<void>;
  resetFailures(webhookId: string): void;
  close(): void;
  /** Runs the jobs that job webhooks start (cancel and logs go through it too). */
  jobs: JobRunner;
}

/** Status a replay reports when the receiver gave no HTTP response (refused, timeout). */
export const NO_RESPONSE_STATUS = 0;

export function createDeliveryEngine(host: DeliveryHost, options: DeliveryEngineOptions = {}): DeliveryEngine {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  const failures = new FailureTracker(options.failureThreshold ?? SUSPEND_AFTER_FAILURES);
  const jobs = new JobRunner({
    save: (job) => host.saveJob(job.owner.name, job),
    load: (id) => host.job(id),
    timing: options.jobTiming,
    now,
  });
  const inFlight = new Set<Promise<unknown>>();
  const limiter = new KeyedLimiter(options.concurrencyPerWebhook ?? 8);
  const headShas = new Map<string, string>();

  function repoFacts(event: MockEvent, actor: string | undefined): RepoFacts {
    const key = `${event.repo.type}/${event.repo.name}`;
    const previous = headShas.get(key) ?? stableId24(`sha:${key}`).padEnd(40, '0');
    const headSha = event.scope === 'repo.content' ? newSha() : previous;
    headShas.set(key, headSha);
    const owner = event.repo.name.split('/')[0]!;
    return {
      id: stableId24(`repo:${key}`),
      private: host.repo(event.repo)?.private ?? false,
      ownerId: host.principal(owner).id,
      actorId: host.principal(actor ?? owner).id,
      headSha,
      ...(event.scope === 'repo.content' ? { previousSha: previous } : {}),
    };
  }

  function targetOf(webhook: Webhook): string {
    if (webhook.url) return webhook.url;
    if (webhook.job) return 'job';
    return `job from ${webhook.jobSourceId}`;
  }

  async function deliver(owner: string, webhook: Webhook, payload: WebhookPayload): Promise<Outcome> {
    const jobRequest = host.webhook(webhook.id)?.jobRequest;
    const url = webhook.url;
    if (url)
      return {
        target: url,
        ...(await limiter.run(webhook.id, () => sendPayload(url, JSON.stringify(payload), webhook.secret, timeoutMs))),
      };
    const noRequest = { requestHeaders: {}, response: null };
    const t0 = performance.now();
    const template = webhook.job ? templateFromWebhookJob(webhook.job, jobRequest) : jobSource(webhook.jobSourceId);
    if (!template) {
      return {
        target: targetOf(webhook),
        status: null,
        error: `source job ${webhook.jobSourceId} not found`,
        failure: 'job',
        durationMs: 0,
        ...noRequest,
      };
    }
    const job = jobs.start(template, JSON.stringify(payload), host.principal(owner));
    return {
      target: `job ${job.owner.name}/${job.id}`,
      jobId: job.id,
      status: 200,
      error: null,
      failure: null,
      durationMs: Math.round(performance.now() - t0),
      ...noRequest,
    };
  }

  function jobSource(id: string | undefined) {
    const job = id === undefined ? undefined : host.job(id);
    return job ? templateFromJob(job) : undefined;
  }

  function settle(webhookId: string, entry: WebhookDelivery): void {
    const current = host.webhook(webhookId);
    if (!current) return; // deleted while the delivery was in flight
    host.appendLog(webhookId, entry);
    const ok = entry.status !== null && entry.status >= 200 && entry.status < 300;
    // A delivery that ends after the webhook was switched off does not count towards suspension.
    if (current.webhook.disabled !== false) return;
    if (failures.record(webhookId, ok)) host.patchWebhook(webhookId, { disabled: 'suspended-after-failure' });
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  function run(
    owner: string,
    webhook: Webhook,
    payload: WebhookPayload,
    logId: string,
    origin: Origin = {},
  ): Promise<Outcome> {
    const createdAt = now().toISOString();
    return track(
      deliver(owner, webhook, payload)
        .catch((err: unknown): Outcome => ({
          target: targetOf(webhook),
          status: null,
          error: String((err as Error)?.message ?? err),
          failure: 'network',
          durationMs: 0,
          requestHeaders: {},
          response: null,
        }))
        .then((outcome) => {
          const entry: WebhookDelivery = {
            id: logId,
            createdAt,
            event: { action: payload.event.action, scope: payload.event.scope },
            repo: { type: payload.repo.type, name: payload.repo.name },
            target: outcome.target,
            status: outcome.status,
            error: outcome.error,
            failure: outcome.failure,
            durationMs: outcome.durationMs,
            ...(origin.replayOf ? { replayOf: origin.replayOf } : {}),
            ...(origin.test ? { test: true } : {}),
            ...(outcome.jobId ? { jobId: outcome.jobId } : {}),
            request: requestRecord(outcome.requestHeaders, JSON.stringify(payload)),
            response: outcome.response,
          };
          try {
            settle(webhook.id, entry);
          } catch (err) {
            // Runs outside any request: a store failure here must not become an unhandled rejection.
            console.error(`mock hub: recording delivery ${logId} of webhook ${webhook.id} failed`, err);
          }
          return outcome;
        }),
    );
  }

  return {
    emit(event, actor) {
      // A private repo's events reach only webhooks whose owner can see the repo.
      const visible = host.webhooks().filter((h) => host.canSee(h.owner, event.repo));
      const matched = matchingWebhooks(
        visible.map((h) => h.webhook),
        event.repo,
        event.scope,
      );
      const facts = matched.length ? repoFacts(event, actor) : undefined;
      const reached: MockEventResult['reached'] = [];
      const triggeredAt = now().toISOString();
      for (const webhook of matched) {
        const owner = host.webhook(webhook.id)?.owner ?? event.repo.name.split('/')[0]!;
        const payload = buildPayload(event, facts!, webhook.id, host.baseUrl());
        const logId = newId24();
        host.patchWebhook(webhook.id, { lastTriggerAt: triggeredAt });
        void run(owner, webhook, payload, logId);
        reached.push({ webhookId: webhook.id, target: targetOf(webhook), logId });
      }
      return { reached };
    },
    logs: (webhookId) => host.logs(webhookId),
    async sendTest(webhookId, event) {
      const hook = host.webhook(webhookId);
      if (!hook) return undefined;
      const payload = buildPayload(event, repoFacts(event, hook.owner), webhookId, host.baseUrl());
      const logId = newId24();
      host.patchWebhook(webhookId, { lastTriggerAt: now().toISOString() });
      const outcome = await run(hook.owner, hook.webhook, payload, logId, { test: true });
      return { logId, status: outcome.status ?? NO_RESPONSE_STATUS };
    },
    async replay(webhookId, logId) {
      const hook = host.webhook(webhookId);
      const payload = replayablePayload(host.logs(webhookId).find((e) => e.id === logId));
      if (!hook || payload === undefined) return undefined;
      host.patchWebhook(webhookId, { lastTriggerAt: now().toISOString() });
      const outcome = await run(hook.owner, hook.webhook, JSON.parse(payload) as WebhookPayload, newId24(), {
        replayOf: logId,
      });
      return { status: outcome.status ?? NO_RESPONSE_STATUS };
    },
    canReplay: (webhookId, logId) => replayablePayload(host.logs(webhookId).find((e) => e.id === logId)) !== undefined,
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    resetFailures(webhookId) {
      failures.reset(webhookId);
    },
    close() {
      jobs.close();
    },
    jobs,
  };
}
