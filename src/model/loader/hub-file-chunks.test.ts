import { describe, expect, it } from 'vitest';
import { memoryCache, rangeHub } from '../test-support/range-hub.ts';
import { cachedFile } from './browser-cache.ts';
import { ChunkedHubFile, type ChunkOptions } from './hub-file-chunks.ts';
import { HubFileError } from './hub-files.ts';

const bytes = Uint8Array.from({ length: 2500 }, (_, i) => (i * 7) % 251);
const CHUNK = 1000;
const read = async (b: Blob) => new Uint8Array(await b.arrayBuffer());

function file(hub: ReturnType<typeof rangeHub>, opts: Partial<ChunkOptions> & { cache: Cache | null }, size = bytes.length) {
  return new ChunkedHubFile(hub.repo, 'w.safetensors', size, '"e"', { chunkBytes: CHUNK, ...opts });
}

describe('hub files in chunks through the browser cache', () => {
  it('fetches one Range per chunk into the cache, and reads them back without the hub', async () => {
    const hub = rangeHub(bytes);
    const { cache } = memoryCache();
    const fetched: number[] = [];
    const f = file(hub, { cache, onFetched: (n) => fetched.push(n) });
    expect(await read(f.blob())).toEqual(bytes);
    expect(hub.asked.sort()).toEqual(['bytes=0-999', 'bytes=1000-1999', 'bytes=2000-2499']);
    expect(fetched.sort()).toEqual([1000, 1000, 500]);
    // complete: the page's inspector sees it, and a second reader asks the hub nothing
    globalThis.caches = { open: async () => cache } as unknown as CacheStorage;
    try {
      const hit = await cachedFile(f.url);
      expect(hit).toMatchObject({ size: 2500, etag: '"e"' });
      expect(await read((await hit!.blob()).slice(990, 1010))).toEqual(bytes.subarray(990, 1010));
    } finally {
      delete (globalThis as { caches?: unknown }).caches;
    }
    const again = rangeHub(bytes);
    expect(await read(file(again, { cache }).blob().slice(1500, 2100))).toEqual(bytes.subarray(1500, 2100));
    expect(again.asked).toEqual([]);
  });

  it('reads a small part (a header) by a Range of its own, without fetching its chunk', async () => {
    const hub = rangeHub(bytes);
    const f = file(hub, { cache: memoryCache().cache });
    expect(await f.read(8, 100)).toEqual(bytes.subarray(8, 108));
    expect(hub.asked).toEqual(['bytes=8-107']);
    expect(await read(f.blob().slice(0, 10))).toEqual(bytes.subarray(0, 10));
    expect(await f.read(8, 100)).toEqual(bytes.subarray(8, 108));
    expect(hub.asked.slice(1).sort()).toEqual(['bytes=0-999', 'bytes=1000-1999', 'bytes=2000-2499']);
  });

  it('reads a one-chunk file with one plain GET', async () => {
    const hub = rangeHub(bytes.subarray(0, 600));
    expect(await read(file(hub, { cache: memoryCache().cache }, 600).blob())).toEqual(bytes.subarray(0, 600));
    expect(hub.asked).toEqual(['none']);
  });

  it('a cache that refuses degrades to an uncached read, said once', async () => {
    const hub = rangeHub(bytes);
    const errors: string[] = [];
    const opts = { cache: memoryCache({ refuse: true }).cache, onCacheError: (e: Error) => errors.push(e.message) };
    const f = file(hub, opts);
    expect(await read(f.blob())).toEqual(bytes);
    expect(errors).toEqual(['Quota exceeded.']);
    expect(await f.download()).toBe(false);
  });

  it('refuses a file that changes on the hub while it is read, or a hub without Range', async () => {
    const changing = rangeHub(bytes, { etagAfter: { request: 2, etag: '"f"' } });
    await expect(read(file(changing, { cache: null }).blob())).rejects.toThrow(/w\.safetensors: the file changed on the hub while it was read/);
    const err = await read(file(rangeHub(bytes, { ranges: false }), { cache: null }).blob()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubFileError);
    expect((err as Error).message).toMatch(/the hub ignored the Range request/);
  });
});
