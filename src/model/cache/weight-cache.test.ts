import { afterEach, describe, expect, it } from 'vitest';
import { installMemoryOpfs } from '../test-support/memory-opfs.ts';
import { rangeHub } from '../test-support/range-hub.ts';
import { ChunkedHubFile } from './hub-file-chunks.ts';
import { memoryCache } from '../test-support/memory-cache.ts';
import { openCache } from './opfs-cache.ts';
import { BrowserCacheError, storageOp, type FileVersion, type WeightCache } from './weight-cache.ts';

let opfs: ReturnType<typeof installMemoryOpfs> | null = null;
afterEach(() => {
  opfs?.restore();
  opfs = null;
});

const caches: [string, () => Promise<WeightCache>][] = [
  [
    'origin private file system',
    async () => {
      opfs = installMemoryOpfs();
      return openCache();
    },
  ],
  ['memory', async () => memoryCache()],
];

const v: FileVersion = { url: 'https://hub/o/r/resolve/main/w.safetensors', etag: '"e"', size: 25, chunkBytes: 10 };
const body = (n: number, fill = n) => new Response(new Uint8Array(n).fill(fill)).body!;

describe.each(caches)('the weight cache in the %s', (_, open) => {
  it('matches a version only as it was put, chunk for chunk, until a newer version or a delete replaces it', async () => {
    const cache = await open();
    expect(await cache.match(v)).toBeNull();
    const entry = await cache.put(v);
    expect([entry.complete, await entry.has(0)]).toEqual([false, false]);
    // a chunk is stored whole or not at all
    expect(await entry.write(0, body(10))).toBe(10);
    expect(await entry.write(1, body(4))).toBe(4);
    expect([await entry.has(0), await entry.has(1)]).toEqual([true, false]);
    expect(await entry.read(0, 2, 5)).toEqual(new Uint8Array(3).fill(10));
    await expect(storageOp(() => entry.read(1, 0, 10))).rejects.toThrow(BrowserCacheError);
    expect(await entry.write(1, body(10, 11))).toBe(10);
    expect(await entry.write(2, body(5))).toBe(5);
    expect(entry.allPresent).toBe(true);
    await entry.markComplete();
    await entry.release();
    // the same version in other chunks, or of another size, is not a match
    expect(await cache.match({ ...v, chunkBytes: 5 })).toBeNull();
    expect(await cache.match({ ...v, size: 26 })).toBeNull();
    const again = (await cache.match(v))!;
    expect(again.complete).toBe(true);
    const stored = await Promise.all([0, 1, 2].map((i) => again.read(i, 0, i < 2 ? 10 : 5)));
    expect(stored).toEqual([new Uint8Array(10).fill(10), new Uint8Array(10).fill(11), new Uint8Array(5).fill(5)]);
    await again.release();
    // a newer version replaces the one no longer read
    const newer = { ...v, etag: '"f"' };
    await (await cache.put(newer)).release();
    expect(await cache.match(v)).toBeNull();
    expect(await cache.match(newer)).not.toBeNull();
    await cache.delete(newer);
    expect(await cache.match(newer)).toBeNull();
    await cache.delete(newer);
  });

  it('serves a chunked hub file: a second reader of the same version asks the hub nothing', async () => {
    const bytes = Uint8Array.from({ length: 2500 }, (_, i) => (i * 7) % 251);
    const cache = await open();
    const first = rangeHub(bytes);
    const file = (hub: ReturnType<typeof rangeHub>) =>
      new ChunkedHubFile(hub.repo, 'w.safetensors', bytes.length, '"e"', { cache, chunkBytes: 1000 });
    const a = file(first);
    expect(await a.download()).toBe(true);
    expect(first.asked.sort()).toEqual(['bytes=0-999', 'bytes=1000-1999', 'bytes=2000-2499']);
    await a.release();
    const second = rangeHub(bytes);
    const b = file(second);
    expect(new Uint8Array(await b.blob().slice(900, 2100).arrayBuffer())).toEqual(bytes.subarray(900, 2100));
    expect(second.asked).toEqual([]);
    await b.release();
  });
});
