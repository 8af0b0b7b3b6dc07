import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BrowserCacheError, ChunkSumError, storageOp, type FileVersion } from '../src/model/cache/weight-cache.ts';
import { diskCache, diskCacheBytes } from './disk-cache.ts';

const root = mkdtempSync(path.join(tmpdir(), 'disk-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const v: FileVersion = { url: 'http://hub/o/r/resolve/main/w.safetensors', etag: '"e"', size: 25, chunkBytes: 10 };
const body = (n: number, fill: number) => new Response(new Uint8Array(n).fill(fill)).body!;

describe('the weight cache on disk', () => {
  it('keeps whole chunks only, on disk, for a later process to find as it was stored', async () => {
    const dir = path.join(root, 'a');
    const entry = await diskCache(dir).put(v);
    expect(await entry.write(0, body(10, 1))).toBe(10);
    // a short body is not stored: the chunk stays missing and no side file is left
    expect(await entry.write(1, body(4, 2))).toBe(4);
    expect(await entry.has(1)).toBe(false);
    await expect(storageOp(() => entry.read(1, 0, 10))).rejects.toThrow(BrowserCacheError);
    expect(await entry.write(1, body(10, 2))).toBe(10);
    expect(await entry.write(2, body(5, 3))).toBe(5);
    expect(entry.allPresent).toBe(true);
    expect((await diskCache(dir).match(v))!.complete).toBe(false);
    await entry.markComplete();
    expect(await diskCacheBytes(dir)).toBeGreaterThanOrEqual(25);

    // another cache over the same folder (a second visit)
    const again = (await diskCache(dir).match(v))!;
    expect(again.complete).toBe(true);
    expect(await again.read(1, 8, 10)).toEqual(new Uint8Array([2, 2]));
    const stored = await Promise.all([0, 1, 2].map((i) => again.read(i, 0, i < 2 ? 10 : 5)));
    expect(stored).toEqual([new Uint8Array(10).fill(1), new Uint8Array(10).fill(2), new Uint8Array(5).fill(3)]);
    expect(await diskCache(dir).match({ ...v, etag: '"f"' })).toBeNull();
    expect(await diskCache(dir).match({ ...v, chunkBytes: 5 })).toBeNull();
  });

  it('replaces a version by a newer one of the same URL, and deletes only the version named', async () => {
    const dir = path.join(root, 'b');
    const cache = diskCache(dir);
    await (await cache.put(v)).write(0, body(10, 1));
    const newer = { ...v, etag: '"f"' };
    await cache.put(newer);
    expect(await cache.match(v)).toBeNull();
    await cache.delete(v);
    expect(await cache.match(newer)).not.toBeNull();
    await cache.delete(newer);
    expect(await cache.match(newer)).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('finds a chunk changed on disk at its size by its checksum, and removes it', async () => {
    const dir = path.join(root, 'c');
    const entry = await diskCache(dir).put(v);
    for (const [i, n] of [10, 10, 5].entries()) await entry.write(i, body(n, i + 1));
    await entry.markComplete();
    const [folder] = readdirSync(dir);
    const chunk = path.join(dir, folder!, '1');
    const bytes = readFileSync(chunk);
    bytes[3]! ^= 0x10;
    writeFileSync(chunk, bytes);
    const again = (await diskCache(dir).match(v))!;
    expect(await again.read(0, 0, 2)).toEqual(new Uint8Array([1, 1]));
    await expect(storageOp(() => again.read(1, 0, 2))).rejects.toThrow(ChunkSumError);
    expect(await (await diskCache(dir).match(v))!.has(1)).toBe(false);
  });
});
