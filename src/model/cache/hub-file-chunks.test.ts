import { afterEach, describe, expect, it } from 'vitest';
import { installMemoryOpfs, type MemoryOpfsOptions } from '../test-support/memory-opfs.ts';
import { rangeHub } from '../test-support/range-hub.ts';
import { cachedVersions, deleteCachedFiles, openCache, storedAmounts } from './opfs-cache.ts';
import { ChunkedHubFile, type ChunkOptions } from './hub-file-chunks.ts';
import { HubFileError } from '../io/hub-files.ts';

const bytes = Uint8Array.from({ length: 2500 }, (_, i) => (i * 7) % 251);
const CHUNK = 1000;
const read = async (b: Blob) => new Uint8Array(await b.arrayBuffer());

function file(
  hub: ReturnType<typeof rangeHub>,
  opts: Partial<ChunkOptions> & Pick<ChunkOptions, 'cache'>,
  size = bytes.length,
) {
  return new ChunkedHubFile(hub.repo, 'w.safetensors', size, '"e"', { chunkBytes: CHUNK, ...opts });
}

let opfs: ReturnType<typeof installMemoryOpfs> | null = null;
const storage = async (opts: MemoryOpfsOptions = {}) => {
  opfs = installMemoryOpfs(opts);
  return openCache();
};
afterEach(() => {
  opfs?.restore();
  opfs = null;
});

const entriesIn = async (dir: FileSystemDirectoryHandle) => {
  const out: [string, FileSystemHandle][] = [];
  for await (const e of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries())
    out.push(e);
  return out;
};
const firstFolder = async (dir: FileSystemDirectoryHandle) =>
  (await entriesIn(dir)).find(([, h]) => h.kind === 'directory')![1] as FileSystemDirectoryHandle;

/** the one version folder the store holds (root / URL / version) */
const versionFolder = async () =>
  firstFolder(await firstFolder(await firstFolder(await navigator.storage.getDirectory())));

/** every file and folder name in the store, depth first */
async function storedNames(): Promise<string[]> {
  const names: string[] = [];
  const walk = async (dir: FileSystemDirectoryHandle) => {
    for (const [name, h] of await entriesIn(dir)) {
      names.push(name);
      if (h.kind === 'directory') await walk(h as FileSystemDirectoryHandle);
    }
  };
  await walk(await navigator.storage.getDirectory());
  return names;
}

describe('hub files in chunks through the browser cache', () => {
  it(`fetches one Range per chunk into the cache, and reads them back without the hub`, async () => {
    const hub = rangeHub(bytes);
    const cache = await storage();
    const fetched: number[] = [];
    const f = file(hub, { cache, onFetched: (n) => fetched.push(n) });
    expect(await read(f.blob())).toEqual(bytes);
    expect(hub.asked.sort()).toEqual(['bytes=0-999', 'bytes=1000-1999', 'bytes=2000-2499']);
    expect(fetched.sort()).toEqual([1000, 1000, 500]);
    // complete: the page's inspector sees it once the reader lets go, and a second reader asks the hub nothing
    await f.release();
    const [hit, ...more] = await cachedVersions(f.url);
    expect(more).toEqual([]);
    expect(hit).toMatchObject({ size: 2500, etag: '"e"' });
    expect(await read((await hit!.blob()).slice(990, 1010))).toEqual(bytes.subarray(990, 1010));
    const again = rangeHub(bytes);
    const second = file(again, { cache });
    expect(await read(second.blob().slice(1500, 2100))).toEqual(bytes.subarray(1500, 2100));
    expect(again.asked).toEqual([]);
    await second.release();
    expect(await deleteCachedFiles()).toBe(1);
    expect(await cachedVersions(f.url)).toEqual([]);
  });

  it('a new version of the file on the hub replaces the stored chunks', async () => {
    const cache = await storage();
    const f = file(rangeHub(bytes), { cache });
    await read(f.blob());
    await f.release();
    const changed = bytes.map((b) => 255 - b);
    const hub = rangeHub(changed, { etagAfter: { request: 1, etag: '"f"' } });
    const g = new ChunkedHubFile(hub.repo, 'w.safetensors', changed.length, '"f"', { chunkBytes: CHUNK, cache });
    expect(await read(g.blob())).toEqual(changed);
    expect(hub.asked).toHaveLength(3);
    await g.release();
    // the older version, no longer read, is gone
    expect((await cachedVersions(g.url)).map((v) => v.etag)).toEqual(['"f"']);
  });

  it('two versions read at once keep their own chunks (a worker still reading the old one keeps it)', async () => {
    const cache = await storage();
    const changed = bytes.map((b) => 255 - b);
    const old = file(rangeHub(bytes), { cache });
    expect(await read(old.blob().slice(0, 1000))).toEqual(bytes.subarray(0, 1000));
    const next = new ChunkedHubFile(
      rangeHub(changed, { etagAfter: { request: 1, etag: '"f"' } }).repo,
      'w.safetensors',
      changed.length,
      '"f"',
      { chunkBytes: CHUNK, cache },
    );
    expect(await read(next.blob())).toEqual(changed);
    expect(await read(old.blob())).toEqual(bytes);
    await Promise.all([old.release(), next.release()]);
    const versions = await cachedVersions(old.url);
    expect(versions.map((v) => v.etag).sort()).toEqual(['"e"', '"f"']);
    for (const v of versions) expect(await read(await v.blob())).toEqual(v.etag === '"e"' ? bytes : changed);
  });

  it('two readers share the stored chunks (read-only handles)', async () => {
    const cache = await storage();
    const first = file(rangeHub(bytes), { cache });
    expect(await read(first.blob())).toEqual(bytes);
    // the first reader still holds its chunks open
    const hub = rangeHub(bytes);
    const second = file(hub, { cache });
    expect(await read(second.blob())).toEqual(bytes);
    expect(hub.asked).toEqual([]);
    await Promise.all([first.release(), second.release()]);
  });

  it(`a cache that fills up midway: stored chunks stay readable, no partial chunk stays, every file is let go`, async () => {
    const cache = await storage();
    const errors: string[] = [];
    // 25 chunks: the first read stores a few (it fetches 3 ahead), the rest meet a full disk
    const f = file(rangeHub(bytes), { cache, chunkBytes: 100, onCacheError: (e) => errors.push(e.message) });
    expect(await read(f.blob().slice(0, 100))).toEqual(bytes.subarray(0, 100));
    opfs!.options.refuse = true;
    expect(await read(f.blob())).toEqual(bytes);
    expect(errors).toEqual(['Quota exceeded.']);
    await f.release();
    expect((await storedNames()).filter((n) => n.endsWith('.part'))).toEqual([]);
    opfs!.options.refuse = false;
    // nothing holds a file open: the cache clears at once
    expect(await deleteCachedFiles()).toBe(0);
    expect(await storedNames()).toEqual([]);
  });

  it(`a stored chunk that cannot be read comes from the hub instead, said once`, async () => {
    const cache = await storage();
    const hub = rangeHub(bytes);
    const errors: string[] = [];
    const f = file(hub, { cache, onCacheError: (e) => errors.push(e.message) });
    await f.download();
    expect(hub.asked).toHaveLength(3);
    // another tab cut chunk 2 short and removed chunk 3
    const dir = await versionFolder();
    const w = await (await dir.getFileHandle('1')).createWritable();
    await w.write(new Uint8Array(10));
    await w.close();
    await dir.removeEntry('2');
    expect(await read(f.blob())).toEqual(bytes);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/chunk 2 of the browser cache is shorter than stored/);
    expect(hub.asked.slice(3).sort()).toEqual(['bytes=1000-1999', 'bytes=2000-2499']);
    await f.release();
  });

  it('many readers of a stored chunk that cannot be read share one fetch of it from the hub', async () => {
    const cache = await storage();
    const hub = rangeHub(bytes);
    const f = file(hub, { cache });
    await f.download();
    await (await versionFolder()).removeEntry('0');
    const parts = Array.from({ length: 13 }, (_, k) => [k * 70, k * 70 + 100] as const);
    const got = await Promise.all(parts.map(([a, b]) => read(f.blob().slice(a, b))));
    expect(got).toEqual(parts.map(([a, b]) => bytes.subarray(a, b)));
    expect(hub.asked.slice(3)).toEqual(['bytes=0-999']);
    await f.release();
  });

  it('a download after one that stopped part way counts the chunks stored as done, and fetches only the rest', async () => {
    const cache = await storage();
    // 25 chunks of 100 bytes: the first download stores 0-9, then chunk 10 fails
    const first = new ChunkedHubFile(
      rangeHub(bytes, { forbid: 'bytes=1000-1099' }).repo,
      'w.safetensors',
      bytes.length,
      '"e"',
      { chunkBytes: 100, cache },
    );
    await expect(first.download(1)).rejects.toThrow(HubFileError);
    // what the page offers to download after the stop: the chunks of this version not yet stored
    expect(
      (await storedAmounts([{ url: first.url, etag: '"e"', size: bytes.length, chunkBytes: 100 }]))[0]!.bytes,
    ).toBe(1000);
    expect(
      (await storedAmounts([{ url: first.url, etag: '"f"', size: bytes.length, chunkBytes: 100 }]))[0]!.bytes,
    ).toBe(0);
    expect(
      (await storedAmounts([{ url: first.url, etag: '"e"', size: bytes.length, chunkBytes: 200 }]))[0]!.bytes,
    ).toBe(0);
    const hub = rangeHub(bytes);
    let stored = 0;
    let fetched = 0;
    const again = new ChunkedHubFile(hub.repo, 'w.safetensors', bytes.length, '"e"', {
      chunkBytes: 100,
      cache,
      onStored: (n) => (stored += n),
      onFetched: (n) => (fetched += n),
    });
    expect(await again.download()).toBe(true);
    expect([stored, fetched, hub.asked.length]).toEqual([1000, 1500, 15]);
    expect(
      (await storedAmounts([{ url: again.url, etag: '"e"', size: bytes.length, chunkBytes: 100 }]))[0]!.bytes,
    ).toBe(bytes.length);
  });

  it('a download stops at the first chunk that fails', async () => {
    const hub = rangeHub(bytes, { forbid: 'bytes=200-299' });
    const f = new ChunkedHubFile(hub.repo, 'w.safetensors', bytes.length, '"e"', {
      chunkBytes: 100,
      cache: await storage(),
    });
    await expect(f.download(2)).rejects.toThrow(HubFileError);
    // 25 chunks: the two loops stop after the failed one (and the one beside it), also the one still running then
    await new Promise((r) => setTimeout(r, 100));
    expect(hub.asked.length).toBeLessThanOrEqual(4);
  });

  it('reads a one-chunk file with one plain GET', async () => {
    const hub = rangeHub(bytes.subarray(0, 600));
    expect(await read(file(hub, { cache: await storage() }, 600).blob())).toEqual(bytes.subarray(0, 600));
    expect(hub.asked).toEqual(['none']);
  });

  it('a cache that refuses degrades to an uncached read, said once', async () => {
    const hub = rangeHub(bytes);
    const errors: string[] = [];
    const opts = { cache: await storage({ refuse: true }), onCacheError: (e: Error) => errors.push(e.message) };
    const f = file(hub, opts);
    expect(await read(f.blob())).toEqual(bytes);
    expect(errors).toEqual(['Quota exceeded.']);
    expect(await f.download()).toBe(false);
  });

  it('refuses a file that changes on the hub while it is read, or a hub without Range', async () => {
    const changing = rangeHub(bytes, { etagAfter: { request: 2, etag: '"f"' } });
    await expect(read(file(changing, { cache: null }).blob())).rejects.toThrow(
      /w\.safetensors: the file changed on the hub while it was read/,
    );
    const err = await read(file(rangeHub(bytes, { ranges: false }), { cache: null }).blob()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HubFileError);
    expect((err as Error).message).toMatch(/the hub ignored the Range request/);
  });
});
