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
