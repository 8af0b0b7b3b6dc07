import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { installMemoryOpfs } from '../test-support/memory-opfs.ts';
import { rangeHub } from '../test-support/range-hub.ts';
import { ChunkSum } from './chunk-sum.ts';

const chunkSum = (bytes: Uint8Array): string => new ChunkSum().update(bytes).digest();
import { ChunkedHubFile } from './hub-file-chunks.ts';
import { memoryCache } from '../test-support/memory-cache.ts';
import { openCache } from './opfs-cache.ts';
import { ROOT, urlFolderName, versionFolderName } from './opfs-layout.ts';
import { ChunkSumError, storageOp, type FileVersion, type WeightCache } from './weight-cache.ts';

describe('the chunk checksum', () => {
  it('is the same whatever pieces the bytes arrive in, and differs for any single changed byte', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 3000 }),
        fc.array(fc.nat(3000), { maxLength: 6 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, cuts, at, flip) => {
          const whole = chunkSum(bytes);
          const sum = new ChunkSum();
          const ends = [...cuts.map((c) => c % bytes.length).sort((a, b) => a - b), bytes.length];
          ends.reduce((from, to) => (sum.update(bytes.subarray(from, to)), to), 0);
          expect(sum.digest()).toBe(whole);
          const changed = bytes.slice();
          changed[at % bytes.length]! ^= flip;
          expect(chunkSum(changed)).not.toBe(whole);
        },
      ),
    );
  });

  it('counts the length: trailing zeros give another sum', () => {
    expect(chunkSum(new Uint8Array(5))).not.toBe(chunkSum(new Uint8Array(6)));
    expect(chunkSum(new Uint8Array(0))).not.toBe(chunkSum(new Uint8Array(8)));
  });
});

let opfs: ReturnType<typeof installMemoryOpfs> | null = null;
afterEach(() => {
  opfs?.restore();
  opfs = null;
});

/** a cache, and what flips a byte of a stored chunk (at its size) or makes an entry one of older code, without a sum */
interface Store {
  cache: WeightCache;
  flip(v: FileVersion, i: number, at: number, xor: number): Promise<void>;
  unsummed(v: FileVersion): Promise<void>;
}

async function opfsFolder(v: FileVersion) {
  const top = await navigator.storage.getDirectory();
  const root = await top.getDirectoryHandle(ROOT);
  return (await root.getDirectoryHandle(await urlFolderName(v.url))).getDirectoryHandle(
    await versionFolderName(v.etag),
  );
}

const stores: [string, () => Promise<Store>][] = [
  [
    'origin private file system',
    async () => {
      opfs = installMemoryOpfs();
      return {
        cache: await openCache(),
        async flip(v, i, at, xor) {
          const f = await (await opfsFolder(v)).getFileHandle(String(i));
          const bytes = new Uint8Array(await (await f.getFile()).arrayBuffer());
          bytes[at]! ^= xor;
          const w = await f.createWritable();
          await w.write(bytes);
          await w.close();
        },
        async unsummed(v) {
          const dir = await opfsFolder(v);
          for (const i of [0, 1, 2]) await dir.removeEntry(`${i}.sum`);
        },
      };
    },
  ],
  [
    'memory',
    async () => {
      const cache = memoryCache();
      const entry = (v: FileVersion) => cache.entries.get(JSON.stringify([v.url, v.etag]))!;
      return {
        cache,
        async flip(v, i, at, xor) {
          entry(v).chunks.get(i)![at]! ^= xor;
        },
        async unsummed(v) {
          entry(v).sums.clear();
        },
      };
    },
  ],
];

const bytes = Uint8Array.from({ length: 2500 }, (_, i) => (i * 7) % 251);
const v: FileVersion = {
  url: 'http://h/a/b/resolve/main/w.safetensors',
  etag: '"e"',
  size: bytes.length,
  chunkBytes: 1000,
};
const file = (hub: ReturnType<typeof rangeHub>, cache: WeightCache) =>
  new ChunkedHubFile(hub.repo, 'w.safetensors', bytes.length, '"e"', { cache, chunkBytes: 1000 });

/** the whole file read through a new load over `cache`; the Range requests it made */
async function load(cache: WeightCache) {
  const hub = rangeHub(bytes);
  const f = file(hub, cache);
  const read = new Uint8Array(await f.blob().arrayBuffer());
  await f.release();
  return { read, asked: hub.asked.sort() };
}

describe.each(stores)('stored chunks in the %s', (_, open) => {
  it('any byte flipped in a stored chunk is found on its first read: the right bytes come from the hub, and the chunk is stored again', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(2), fc.nat(999), fc.integer({ min: 1, max: 255 }), async (chunk, at, xor) => {
        const store = await open();
        expect(await file(rangeHub(bytes), store.cache).download()).toBe(true);
        await store.flip(v, chunk, at % (chunk === 2 ? 500 : 1000), xor);
        const entry = (await store.cache.match(v))!;
        await expect(storageOp(() => entry.read(chunk, 0, 1))).rejects.toThrow(ChunkSumError);
        await entry.release();

        // a run over the damaged entry: only that chunk comes from the hub, into the cache
        const second = await load(store.cache);
        expect(second.read).toEqual(bytes);
        expect(second.asked).toEqual([`bytes=${chunk * 1000}-${Math.min(2499, chunk * 1000 + 999)}`]);
        const third = await load(store.cache);
        expect(third.read).toEqual(bytes);
        expect(third.asked).toEqual([]);
      }),
      { numRuns: 10 },
    );
  });

  it('an entry of older code, with no checksums, has its chunks fetched again, into the cache', async () => {
    const store = await open();
    expect(await file(rangeHub(bytes), store.cache).download()).toBe(true);
    await store.unsummed(v);
    const { read, asked } = await load(store.cache);
    expect(asked).toEqual(['bytes=0-999', 'bytes=1000-1999', 'bytes=2000-2499']);
    expect(read).toEqual(bytes);
    expect((await load(store.cache)).asked).toEqual([]);
  });
});
