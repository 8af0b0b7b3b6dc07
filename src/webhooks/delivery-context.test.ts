import { describe, expect, it } from 'vitest';
import { lazyDeliveryRequest } from './delivery-context.ts';

describe('lazyDeliveryRequest', () => {
  it('answers the context without building the request, and builds it once when a Request member is used', async () => {
    let built = 0;
    const signal = new AbortController().signal;
    const request = lazyDeliveryRequest(
      () => {
        built++;
        return new Request('http://receiver.invalid/webhooks/a', {
          method: 'POST',
          headers: { 'user-agent': 'HF-hub' },
          body: '{"a":1}',
        });
      },
      { deliveryId: 'd1', attempt: 2, signal },
    );
    const { deliveryId, attempt } = request;
    expect([deliveryId, attempt, request.signal]).toEqual(['d1', 2, signal]);
    expect(built).toBe(0);
    expect(request).toBeInstanceOf(Request);
    expect(request.headers.get('user-agent')).toBe('HF-hub');
    expect(request.method).toBe('POST');
    expect(await request.json()).toEqual({ a: 1 });
    expect(built).toBe(1);
  });
});
