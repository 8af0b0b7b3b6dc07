import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeHead, encodeHead, storeHead } from './cached-head.ts';
import { memoryCache } from './memory-cache.ts';
import { headVersion } from './opfs-layout.ts';

describe("a weight file's head kept in the cache", () => {
  it('reads back the file size and every byte of the head, and refuses bytes past it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ maxLength: 300 }),
        fc.nat(300),
        async (size, head, at) => {
          const file = decodeHead(encodeHead(size, head), 'f.safetensors');
          expect(file.size).toBe(size);
          expect(await file.read(0, head.length)).toEqual(head);
          const from = Math.min(at, head.length);
          expect(await file.read(from, head.length - from)).toEqual(head.subarray(from));
          await expect(file.read(from, head.length - from + 1)).rejects.toThrow(/past the stored head/);
        },
      ),
    );
  });

  it('a stored head of fewer than 8 bytes is refused, naming the file', () => {
    expect(() => decodeHead(new Uint8Array(5), 'f.safetensors')).toThrow(
      /^f\.safetensors: the stored head has 5 bytes/,
    );
  });

  it('is stored once per version: a complete entry is not written again', async () => {
    const cache = memoryCache();
    const source = { url: 'https://hub/a/resolve/main/f.safetensors', etag: '"e"', size: 1234 };
    const head = new Uint8Array([3, 0, 0, 0, 0, 0, 0, 0, 123, 125, 32]);
    let puts = 0;
    const counted = { ...cache, put: (v: Parameters<typeof cache.put>[0]) => (puts++, cache.put(v)) };
    await storeHead(counted, source, head);
    await storeHead(counted, source, head);
    expect(puts).toBe(1);
    const entry = (await cache.match(headVersion(source, 8 + head.length)))!;
    expect(entry.complete).toBe(true);
    const file = decodeHead(new Uint8Array(await (await entry.blob()).arrayBuffer()), source.url);
    expect([file.size, [...(await file.read(0, head.length))]]).toEqual([1234, [...head]]);
    // another version of the file on the hub (a new ETag) is stored anew
    await storeHead(counted, { ...source, etag: '"f"' }, head);
    expect(puts).toBe(2);
  });
});
