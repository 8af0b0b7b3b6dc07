// The weight cache on disk, for Node: what the origin private file system is to the page (a
// folder per file version, a file per chunk), so that a benchmark of the page's loader keeps the
// converted weights where the page keeps them, out of JavaScript memory. Not used by the page.
import { createHash } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  BrowserCacheError,
  checkWhole,
  chunkCount,
  chunkLength,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from '../src/model/loader/weight-cache.ts';

const folderName = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 32);
const META = 'meta.json';

interface Meta extends FileVersion {
  complete: boolean;
}

class DiskStoredFile implements StoredFile {
  private readonly present = new Set<number>();

  constructor(
    private readonly dir: string,
    private meta: Meta,
  ) {}

  get complete(): boolean {
    return this.meta.complete;
  }

  get allPresent(): boolean {
    return this.present.size === chunkCount(this.meta.size, this.meta.chunkBytes);
  }

  async has(i: number): Promise<boolean> {
    if (this.present.has(i)) return true;
    const s = await stat(path.join(this.dir, String(i))).catch(() => null);
    if (s?.size !== chunkLength(this.meta, i)) return false;
    this.present.add(i);
    return true;
  }

  /** written to a side file, renamed into place once whole: a chunk is stored whole or not at all */
  async write(i: number, body: ReadableStream<Uint8Array>): Promise<number> {
    const part = path.join(this.dir, `${i}.part`);
    const fh = await open(part, 'w');
    let n = 0;
    try {
      const reader = body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        await fh.write(r.value);
        n += r.value.length;
      }
    } finally {
      await fh.close();
    }
    if (n !== chunkLength(this.meta, i)) {
      await rm(part, { force: true });
      return n;
    }
    await rename(part, path.join(this.dir, String(i)));
    this.present.add(i);
    return n;
  }

  async read(i: number, from: number, to: number): Promise<Uint8Array> {
    const fh = await open(path.join(this.dir, String(i)), 'r').catch((e: Error) => {
      throw new BrowserCacheError(`${this.meta.url}: chunk ${i + 1} is not on disk (${e.message})`);
    });
    try {
      const out = new Uint8Array(to - from);
      const { bytesRead } = await fh.read(out, 0, out.length, from);
      return checkWhole(this.meta, i, from, to, out.subarray(0, bytesRead));
    } finally {
      await fh.close();
    }
  }

  /** one Blob over the chunk files, read from disk only as it is read */
  async blob(): Promise<Blob> {
    const n = chunkCount(this.meta.size, this.meta.chunkBytes);
    const parts = await Promise.all(Array.from({ length: n }, (_, i) => openAsBlob(path.join(this.dir, String(i)))));
    return new Blob(parts);
  }

  async markComplete(): Promise<void> {
    this.meta = { ...this.meta, complete: true };
    await writeFile(path.join(this.dir, META), JSON.stringify(this.meta));
  }

  async release(): Promise<void> {}
}

/** a WeightCache in `root` (made when missing): one folder per URL, holding its one stored version */
export function diskCache(root: string): WeightCache {
  const dirOf = (v: FileVersion) => path.join(root, folderName(v.url));
  const readMeta = async (dir: string): Promise<Meta | null> =>
    JSON.parse(await readFile(path.join(dir, META), 'utf8').catch(() => 'null')) as Meta | null;
  return {
    async match(v) {
      const meta = await readMeta(dirOf(v));
      const same = meta && meta.etag === v.etag && meta.size === v.size && meta.chunkBytes === v.chunkBytes;
      return same ? new DiskStoredFile(dirOf(v), meta) : null;
    },
    async put(v) {
      const dir = dirOf(v);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const meta: Meta = { url: v.url, etag: v.etag, size: v.size, chunkBytes: v.chunkBytes, complete: false };
      await writeFile(path.join(dir, META), JSON.stringify(meta));
      return new DiskStoredFile(dir, meta);
    },
    async delete(v) {
      const meta = await readMeta(dirOf(v));
      if (meta?.etag === v.etag) await rm(dirOf(v), { recursive: true, force: true });
    },
  };
}

/** bytes the cache holds on disk */
export async function diskCacheBytes(root: string): Promise<number> {
  let total = 0;
  for (const d of await readdir(root).catch(() => [])) {
    for (const f of await readdir(path.join(root, d)).catch(() => []))
      total += (await stat(path.join(root, d, f))).size;
  }
  return total;
}
