// One attempt's call of a stored delivery's handler: the payload parsed from the stored body, the
// request rebuilt lazily, a timeout for a handler that returns a promise, and the attempt's abort.
import { lazyDeliveryRequest, type DeliveryRequest } from './delivery-context.ts';
import type { Delivery } from './store/delivery-record.ts';

export type StoredHandler = (payload: never, request: DeliveryRequest) => unknown;

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  (typeof v === 'object' || typeof v === 'function') &&
  v !== null &&
  typeof (v as PromiseLike<unknown>).then === 'function';

/** Settles with the handler's promise, or rejects with the signal's reason once it aborts. */
function raceAbort<T>(handler: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
  return Promise.race([handler, aborted]);
}

/**
 * Calls `handler` for attempt `n` of `d`. `abort` ends the attempt early (a shutdown); a handler
 * that returns a promise is aborted after `timeoutMs` (one that returns a value needs no timer).
 */
export async function runHandler(
  handler: StoredHandler,
  d: Delivery,
  n: number,
  abort: AbortController,
  timeoutMs: number,
): Promise<Outcome> {
  const { signal } = abort;
  let timeout: NodeJS.Timeout | undefined;
  try {
    const request = lazyDeliveryRequest(
      () =>
        new Request(`http://receiver.invalid/webhooks/${d.route}`, {
          method: 'POST',
          headers: d.headers,
          body: d.body,
          signal,
        }),
      { deliveryId: d.id, attempt: n, signal },
    );
    signal.throwIfAborted();
    let value = handler(JSON.parse(d.body) as never, request);
    if (isThenable(value)) {
      timeout = setTimeout(() => abort.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      value = await raceAbort(value, signal);
    }
    // A handler that settles because its signal aborted still ran out of time.
    signal.throwIfAborted();
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timeout);
  }
}
