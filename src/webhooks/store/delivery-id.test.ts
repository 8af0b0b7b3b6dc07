import { describe, expect, it } from 'vitest';
import { deliveryIdOf } from './delivery-id.ts';

describe('delivery id', () => {
  // Ids are stored: a replay of a delivery received before an upgrade must get the id it got then.
  it('is the first 128 bits of SHA-256 over route, newline and body (or the relay webhook-id), as stored before', () => {
    expect(deliveryIdOf('train', '{"event":{"action":"update","scope":"repo"},"repo":{"name":"é/ü"}}')).toBe(
      '988709535e903d1604735b3d6d322c2e',
    );
    expect(deliveryIdOf('train', '{}', 'msg_2Lh')).toBe('8290e304411502dc3bc374a72e174107');
  });

  it('differs by route and by body, not by anything else', () => {
    const id = deliveryIdOf('a', '{"x":1}');
    expect(deliveryIdOf('a', '{"x":1}')).toBe(id);
    expect(deliveryIdOf('b', '{"x":1}')).not.toBe(id);
    expect(deliveryIdOf('a', '{"x":2}')).not.toBe(id);
    expect(deliveryIdOf('a', '{"x":1}', 'msg_1')).toBe(deliveryIdOf('a', '{"other":1}', 'msg_1'));
  });
});
