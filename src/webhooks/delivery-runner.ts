// Runs stored deliveries in the background: per-route queues in arrival order, a per-route and a
// global concurrency cap, a per-route timeout, retries with backoff, and a shutdown that lets running
// handlers finish up to a deadline and then aborts them (they run again on the next start).
import { errorText, storableResult } from './attempt-result.ts';
import type { WebhooksLogger } from './logger.ts';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './retry-backoff.ts';
import type { Attempt, Delivery } from './store/delivery-record.ts';
import type { DeliveryStore } from './store/delivery-store.ts';
import { runHandler, type StoredHandler } from './run-handler.ts';

export interface RouteOptions {
  /** Handlers of this route running at once (default 1: one after another, in arrival order). */
  concurrency?: number;
  /** An attempt running longer fails and is retried (default 10 minutes). */
  timeoutMs?: number;
}

export interface RunnerOptions {
  store: DeliveryStore;
  logger: WebhooksLogger;
  /** Handlers running at once over all routes (default 16). */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  random?: () => number;
}

/** A delivery as it arrives: checked (secret, JSON, payload shape) but not yet stored. */
export interface Arrival {
  id: string;
  route: string;
  headers: Record<string, string>;
  body: string;
}

/** What the sender is told: the delivery's id, its state, and whether it was seen before. */
export interface Acceptance {
  deliveryId: string;
  state: Delivery['state'];
  duplicate?: true;
}

interface Route {
  handler: StoredHandler;
  concurrency: number;
  timeoutMs: number;
  queue: Delivery[];
  running: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

class ShutdownAbort extends Error {
  override name = 'ShutdownAbort';
}

export class DeliveryRunner {
  private readonly routes = new Map<string, Route>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Ids in some route's queue, so scheduling the same delivery twice is a no-op at any queue length. */
  private readonly queued = new Set<string>();
  private readonly idleWaiters: (() => void)[] = [];
  private active = 0;
  private stopping = false;
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;

  constructor(private readonly options: RunnerOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.concurrency = options.concurrency ?? 16;
  }

  /** Brings back what a previous run left: running ones lost their attempt, failed ones wait their turn. */
  resume(): { requeued: number; interrupted: number } {
    let requeued = 0;
    let interrupted = 0;
    const now = Date.now();
    for (const d of [...this.options.store.all()]) {
      if (d.state === 'running') {
        interrupted++;
        const attempts = d.attempts.map((a) =>
          a.endedAt === undefined
            ? { ...a, endedAt: now, error: 'interrupted: the receiver stopped during this attempt' }
            : a,
        );
        this.options.store
          .update(d.id, { state: 'queued', attempts })
          .catch((err: unknown) => this.options.logger.error(`Delivery ${d.id}: ${errorText(err)}`));
      }
      if (d.state === 'queued' || d.state === 'failed') requeued++;
    }
    return { requeued, interrupted };
  }

  register(name: string, handler: StoredHandler, options: RouteOptions = {}): void {
    this.routes.set(name, {
      handler,
      concurrency: Math.max(1, options.concurrency ?? 1),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      queue: [],
      running: 0,
    });
    for (const d of this.options.store.all()) if (d.route === name) this.schedule(d);
    this.pump();
  }

  /**
   * Takes a delivery that arrived: a delivery id seen before counts as a duplicate and runs nothing;
   * a new one is stored (on disk when this resolves) and queued. Throws when it could not be stored.
   */
  async accept(arrival: Arrival): Promise<Acceptance> {
    const { store } = this.options;
    const seen = store.get(arrival.id);
    if (seen) {
      await store.update(seen.id, { duplicates: seen.duplicates + 1 });
      return { deliveryId: seen.id, state: seen.state, duplicate: true };
    }
    const stored = await store.add(arrival);
    this.enqueue(stored);
    return { deliveryId: stored.id, state: this.running.has(stored.id) ? 'running' : 'queued' };
  }

  private enqueue(d: Delivery): void {
    this.schedule(d);
    this.pump();
  }

  /** Runs a stored delivery again with a fresh retry budget, whatever its state (unless it is running). */
  async replay(d: Delivery): Promise<boolean> {
    if (d.state === 'running' || this.running.has(d.id)) return false;
    const timer = this.timers.get(d.id);
    if (timer) clearTimeout(timer);
    this.timers.delete(d.id);
    const route = this.routes.get(d.route);
    if (route) route.queue = route.queue.filter((q) => q.id !== d.id);
    this.queued.delete(d.id);
    await this.options.store.update(d.id, {
      state: 'queued',
      budgetFrom: d.attempts.length,
      replays: d.replays + 1,
      nextAttemptAt: undefined,
    });
    this.enqueue(d);
    return true;
  }

  private schedule(d: Delivery): void {
    if (this.stopping) return;
    const route = this.routes.get(d.route);
    if (!route || this.timers.has(d.id) || this.queued.has(d.id)) return;
    if (d.state === 'failed') {
      const wait = Math.max(0, (d.nextAttemptAt ?? 0) - Date.now());
      this.timers.set(
        d.id,
        setTimeout(() => {
          this.timers.delete(d.id);
          this.insertInOrder(route, d);
          this.pump();
        }, wait),
      );
    } else if (d.state === 'queued') this.insertInOrder(route, d);
  }

  // A retry goes back in arrival order, ahead of deliveries that came after it.
  private insertInOrder(route: Route, d: Delivery): void {
    let i = route.queue.length;
    while (i > 0 && route.queue[i - 1]!.seq > d.seq) i--;
    route.queue.splice(i, 0, d);
    this.queued.add(d.id);
  }

  private takeSlot(route: Route): void {
    route.running++;
    this.active++;
  }

  private freeSlot(route: Route): void {
    route.running--;
    this.active--;
  }

  private pump(): void {
    if (this.stopping) return;
    for (const route of this.routes.values()) {
      while (route.queue.length && route.running < route.concurrency && this.active < this.concurrency) {
        const d = route.queue.shift()!;
        this.queued.delete(d.id);
        this.takeSlot(route);
        this.launch(route, d);
      }
    }
    this.notifyIdle();
  }

  /** Runs an attempt in a slot already taken. */
  private launch(route: Route, d: Delivery): void {
    const abort = new AbortController();
    const done = this.attempt(route, d, abort).finally(() => {
      this.freeSlot(route);
      this.running.delete(d.id);
      this.pump();
      this.notifyIdle();
    });
    this.running.set(d.id, { abort, done });
  }

  private async attempt(route: Route, d: Delivery, abort: AbortController): Promise<void> {
    const { store, logger } = this.options;
    const started: Attempt = { n: d.attempts.length + 1, startedAt: Date.now() };
    try {
      // On disk before the handler runs: after a crash the attempt counts and shows as interrupted.
      await store.update(d.id, {
        state: 'running',
        attempts: [...d.attempts, started],
        error: undefined,
        nextAttemptAt: undefined,
      });
    } catch (err) {
      logger.error(`Delivery ${d.id} could not be marked running (${errorText(err)}); it stays queued.`);
      setTimeout(() => this.enqueue(d), 1000).unref();
      return;
    }
    const outcome = await runHandler(route.handler, d, started.n, abort, route.timeoutMs);
    const ended: Attempt = { n: started.n, startedAt: started.startedAt, endedAt: Date.now() };
    const others = d.attempts.slice(0, -1);
    try {
      if (outcome.ok) {
        const result = await storableResult(outcome.value);
        await store.update(d.id, { state: 'done', attempts: [...others, ended], result });
        return;
      }
      const error = errorText(outcome.error);
      if (outcome.error instanceof ShutdownAbort) {
        await store.update(d.id, { state: 'queued', attempts: [...others, { ...ended, error }] });
        return;
      }
      const failures = d.attempts.length - d.budgetFrom;
      const attempts = [...others, { ...ended, error }];
      if (failures >= this.retry.attempts) {
        logger.error(`Delivery ${d.id} to /webhooks/${d.route} is dead after ${failures} attempts: ${error}`);
        await store.update(d.id, { state: 'dead', attempts, error });
        return;
      }
      const nextAttemptAt = Date.now() + retryDelayMs(failures, this.retry, this.options.random);
      logger.warn(`Delivery ${d.id} to /webhooks/${d.route} failed (attempt ${started.n}): ${error}; retrying.`);
      await store.update(d.id, { state: 'failed', attempts, error, nextAttemptAt });
      this.schedule(d);
    } catch (err) {
      logger.error(`Delivery ${d.id}: recording the attempt failed: ${errorText(err)}`);
    }
  }

  /** Resolves when nothing is queued, running or waiting for its retry. */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.notifyIdle();
    });
  }

  private notifyIdle(): void {
    if (!this.idleWaiters.length) return;
    const queued = [...this.routes.values()].some((r) => r.queue.length > 0);
    if (this.active > 0 || queued || this.timers.size > 0) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Starts nothing more; lets running handlers finish for up to `deadlineMs`, then aborts them. */
  async shutdown(deadlineMs: number): Promise<{ aborted: number }> {
    this.stopping = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), deadlineMs))),
    ]);
    clearTimeout(timer);
    const aborted = late ? this.running.size : 0;
    if (late) {
      for (const r of this.running.values()) r.abort.abort(new ShutdownAbort('aborted: the receiver shut down'));
      await all();
    }
    return { aborted };
  }
}
