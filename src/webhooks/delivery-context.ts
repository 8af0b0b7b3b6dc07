import type { ReceivedWebhookPayload } from './payload-schema.ts';

/** What a handler gets besides the payload. */
export interface DeliveryContext {
  /** The delivery's stable id (see store/delivery-id.ts). */
  deliveryId: string;
  /** 1 for the first attempt; counts on across retries, restarts and replays. */
  attempt: number;
  /** Aborts when the attempt times out or the server shuts down. */
  signal: AbortSignal;
}

/**
 * The request as the handler sees it: without a store the live request, with one a request rebuilt
 * from the stored headers (secrets left out) and body, its `signal` the attempt's.
 */
export type DeliveryRequest = Request & DeliveryContext;

export function withDeliveryContext(request: Request, deliveryId: string, attempt: number): DeliveryRequest {
  return Object.assign(request, { deliveryId, attempt }) as DeliveryRequest;
}

/**
 * A stored delivery's request, built only when the handler touches a Request member: most handlers
 * use the payload and the context alone, and building a Request (headers, body stream, signal) per
 * attempt costs more CPU than the rest of the attempt.
 */
export function lazyDeliveryRequest(build: () => Request, context: DeliveryContext): DeliveryRequest {
  return new Proxy(context as DeliveryRequest, new LazyRequest(build));
}

// A class, not closures made per call: the proxy's traps are its methods.
class LazyRequest implements ProxyHandler<DeliveryRequest> {
  private request: Request | undefined;

  constructor(private readonly build: () => Request) {}

  private real(): Request {
    return (this.request ??= this.build());
  }

  get(target: DeliveryRequest, key: string | symbol): unknown {
    if (key in target) return target[key as keyof DeliveryContext];
    const r = this.real();
    const value: unknown = Reflect.get(r, key, r);
    // Request methods check that `this` is a real Request.
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(r) : value;
  }

  has(target: DeliveryRequest, key: string | symbol): boolean {
    return key in target || key in this.real();
  }

  getPrototypeOf(): object {
    return Request.prototype;
  }
}

/**
 * Gets the validated payload and the request (with `deliveryId`, `attempt` and `signal`). Without a
 * store it runs inside the hub's request and what it returns is the JSON response (a `Response` is
 * sent as is); with one it runs in the background and what it returns is kept as the delivery's result.
 */
export type WebhookHandler = (payload: ReceivedWebhookPayload, request: DeliveryRequest) => unknown;
