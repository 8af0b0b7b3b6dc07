// Runs stored deliveries in the background: per-route queues in arrival order, a per-route and a
// global concurrency cap, a per-route timeout, retries with backoff, and a shutdown that lets running
// handlers finish up to a deadline and then aborts them (they run again on the next start).
import { lazyDeliveryRequest, type DeliveryContext, type DeliveryRequest } from './delivery-context.ts';
import type { WebhooksLogger } from './logger.ts';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './retry-backoff.ts';
import type { Attempt, Delivery } from './store/delivery-record.ts';
import type { DeliveryStore } from './store/delivery-store.ts';

export type StoredHandler = (payload: never, request: DeliveryRequest) => unknown;

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

interface Route {
  handler: StoredHandler;
  concurrency: number;
  timeoutMs: number;
  queue: Delivery[];
  running: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
/** Deliveries waiting for their turn whose payload, parsed on arrival, is kept for their first attempt. */
const MAX_PARSED_KEPT = 256;
/** The longest result kept with a delivery; a longer one is kept as a note. */
const MAX_RESULT_CHARS = 64 * 1024;

class ShutdownAbort extends Error {
  override name = 'ShutdownAbort';
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as PromiseLike<unknown>).then === 'function';

/**
 * How an attempt ends early (its timeout, a shutdown). The handler's `signal` is made only when the
 * handler (or its request) asks for it, and the handler's promise races a promise of this abort
 * rather than a listener on the signal: most handlers never look at the signal, and an AbortSignal
 * with a listener costs more than the rest of a quick attempt's bookkeeping.
 */
class AttemptAbort {
  private controller: AbortController | undefined;
  private rejectRace: ((reason: unknown) => void) | undefined;
  private aborted = false;
  private reason: unknown;

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    if (this.aborted) this.controller.abort(this.reason);
    return this.controller.signal;
  }

  context(deliveryId: string, attempt: number): DeliveryContext {
    return new AttemptContext(deliveryId, attempt, this);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    // Rejected before the signal fires, so a handler that settles on `abort` does not win the race.
    this.rejectRace?.(reason);
    this.controller?.abort(reason);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  race<T>(handler: PromiseLike<T>): Promise<T> {
    if (this.aborted) return Promise.reject(this.reason as Error);
    const aborted = new Promise<never>((_, reject) => (this.rejectRace = reject));
    return Promise.race([handler, aborted]);
  }
}

class AttemptContext implements DeliveryContext {
  readonly #abort: AttemptAbort;

  constructor(
    readonly deliveryId: string,
    readonly attempt: number,
    abort: AttemptAbort,
  ) {
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
}

const responseResult = async (r: Response) => storableResult({ status: r.status, body: await r.text() });

function storableResult(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return String(value);
  }
  if (json.length > MAX_RESULT_CHARS) return `(result of ${json.length} characters, longer than the store keeps)`;
  return JSON.parse(json) as unknown;
}

export class DeliveryRunner {
  private readonly routes = new Map<string, Route>();
  private readonly running = new Map<string, { abort: AttemptAbort; done: Promise<void> }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Ids in some route's queue, so scheduling the same delivery twice is a no-op at any queue length. */
  private readonly queued = new Set<string>();
  /** Payloads parsed when they arrived, for their first attempt (later ones parse the stored body again). */
  private readonly parsed = new Map<string, unknown>();
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

  /** Queues a delivery that was just stored (with its body as parsed on arrival), or one a replay reset. */
  enqueue(d: Delivery, payload?: unknown): void {
    if (payload !== undefined && !this.stopping) this.parsed.set(d.id, payload);
    this.schedule(d);
    this.pump();
    // Kept for the first MAX_PARSED_KEPT waiting deliveries only: a parsed payload is many small
    // objects, and holding one per queued delivery (thousands behind slow handlers) makes every
    // garbage collection longer; under a burst of quick ones, parsing each body twice costs more.
    if (this.parsed.size > MAX_PARSED_KEPT && this.queued.has(d.id)) this.parsed.delete(d.id);
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

  /**
   * Takes a slot for a delivery of `route` that is about to be stored, when it could start at once
   * (nothing of the route waiting, a slot free): it is then stored as running, its first attempt in
   * its arrival record, and handed to `runStored` once on disk, so it costs one record less than a
   * queued one. Give the slot back with `release` if storing it fails.
   */
  startsNow(routeName: string): boolean {
    const route = this.routes.get(routeName);
    if (this.stopping || !route || route.queue.length) return false;
    if (route.running >= route.concurrency || this.active >= this.concurrency) return false;
    this.takeSlot(route);
    return true;
  }

  release(routeName: string): void {
    this.freeSlot(this.routes.get(routeName)!);
    this.pump();
  }

  private takeSlot(route: Route): void {
    route.running++;
    this.active++;
  }

  private freeSlot(route: Route): void {
    route.running--;
    this.active--;
  }

  /** Runs a delivery `startsNow` reserved a slot for, now on disk as running (with its parsed payload). */
  runStored(d: Delivery, payload: unknown): void {
    const route = this.routes.get(d.route)!;
    if (this.stopping) {
      // Shut down while it was being written: its attempt never began, so it is not one.
      this.options.store
        .update(d.id, { state: 'queued', attempts: d.attempts.slice(0, -1) })
        .catch((err: unknown) => this.options.logger.error(`Delivery ${d.id}: ${errorText(err)}`));
      this.freeSlot(route);
      this.notifyIdle();
      return;
    }
    this.parsed.set(d.id, payload);
    this.launch(route, d, true);
  }

  private pump(): void {
    if (this.stopping) return;
    for (const route of this.routes.values()) {
      while (route.queue.length && route.running < route.concurrency && this.active < this.concurrency) {
        const d = route.queue.shift()!;
        this.queued.delete(d.id);
        this.takeSlot(route);
        this.launch(route, d, false);
      }
    }
    this.notifyIdle();
  }

  /** Runs an attempt in a slot already taken; `stored` when its running state is already on disk. */
  private launch(route: Route, d: Delivery, stored: boolean): void {
    const abort = new AttemptAbort();
    const done = this.attempt(route, d, abort, stored).finally(() => {
      this.freeSlot(route);
      this.running.delete(d.id);
      this.pump();
      this.notifyIdle();
    });
    this.running.set(d.id, { abort, done });
  }

  private async attempt(route: Route, d: Delivery, abort: AttemptAbort, stored: boolean): Promise<void> {
    const { store, logger } = this.options;
    const started: Attempt = stored ? d.attempts.at(-1)! : { n: d.attempts.length + 1, startedAt: Date.now() };
    if (!stored) {
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
    }
    // Only a handler that returns a promise can run past its timeout: no timer for one that returns a value.
    let timeout: NodeJS.Timeout | undefined;
    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      const request = lazyDeliveryRequest(
        () =>
          new Request(`http://receiver.invalid/webhooks/${d.route}`, {
            method: 'POST',
            headers: d.headers,
            body: d.body,
            signal: abort.signal,
          }),
        abort.context(d.id, started.n),
      );
      const payload = this.parsed.get(d.id) ?? JSON.parse(d.body);
      this.parsed.delete(d.id);
      abort.throwIfAborted();
      const returned = route.handler(payload as never, request);
      let value = returned;
      if (isThenable(returned)) {
        const ms = route.timeoutMs;
        timeout = setTimeout(() => abort.abort(new Error(`timed out after ${ms} ms`)), ms);
        value = await abort.race(returned);
      }
      outcome = { ok: true, value };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      clearTimeout(timeout);
    }
    const ended: Attempt = { n: started.n, startedAt: started.startedAt, endedAt: Date.now() };
    const others = d.attempts.slice(0, -1);
    try {
      if (outcome.ok) {
        const { value } = outcome;
        const result = value instanceof Response ? await responseResult(value) : storableResult(value);
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
