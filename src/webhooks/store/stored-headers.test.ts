import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedHeaders } from './stored-headers.ts';

const name = fc.oneof(
  fc.constantFrom('Content-Type', 'X-Webhook-Secret', 'authorization', 'Host', 'Content-Length', 'X-Trace', 'x-trace'),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,11}$/).filter((n) => n.toLowerCase() !== 'set-cookie'),
);
const value = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '  '),
    fc.stringMatching(/^([!-~]([ !-~]{0,10}[!-~])?)?$/),
    fc.constantFrom('', ' ', '\t'),
  )
  .map((parts) => parts.join(''));

describe('stored headers', () => {
  it('from the raw header list as received equal those from the Headers built from it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 12 }), (pairs) => {
        const headers = new Headers();
        for (const [n, v] of pairs) headers.append(n, v);
        expect(storedHeaders(pairs.flat())).toEqual(storedHeaders(headers));
      }),
    );
  });

  it('keep no secret and no connection header, whatever their case, and skip HTTP/2 pseudo-headers', () => {
    const raw = [
      ':path',
      '/webhooks/a',
      'X-Webhook-Secret',
      's',
      'Cookie',
      'c',
      'HOST',
      'h',
      'X-Hub',
      ' a ',
      'x-hub',
      'b',
    ];
    expect(storedHeaders(raw)).toEqual({ 'x-hub': 'a, b' });
  });
});
