// The weight cache on disk, for Node: what the origin private file system is to the page (a
// folder per file version, a file per chunk), so that a benchmark of the page's loader keeps the
// converted weights where the page keeps them, out of JavaScript memory. Not used by the page.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newMeta, StoredChunks, type StoredMeta } from '../src/model/cache/stored-chunks.ts';
import { BrowserCacheError, type FileVersion, type WeightCache } from '../src/model/cache/weight-cache.ts';

const folderName = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 32);
const META = 'meta.json';

class DiskStoredFile extends StoredChunks {
  constructor(
    private readonly dir: string,
    meta: StoredMeta,
  ) {
    super(meta);
  }

  private file(name: string | number): string {
    return path.join(this.dir, String(name));
  }

  protected async storedLength(i: number) {
    return (await stat(this.file(i)).catch(() => null))?.size ?? null;
  }

  /** written to a side file (renamed into place by `keep`): a chunk is stored whole or not at all */
  protected async writeAside(i: number, body: ReadableStream<Uint8Array>) {
    const fh = await open(this.file(`${i}.part`), 'w');
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
    return n;
  }

  protected async dropAside(i: number) {
    await rm(this.file(`${i}.part`), { force: true });
  }

  protected async keep(i: number, sum: string) {
    await writeFile(this.file(`${i}.sum`), sum);
    await rename(this.file(`${i}.part`), this.file(i));
  }

  protected async readRange(i: number, from: number, to: number) {
    const fh = await open(this.file(i), 'r').catch((e: Error) => {
      throw new BrowserCacheError(`${this.meta.url}: chunk ${i + 1} is not on disk (${e.message})`);
    });
    try {
      const out = new Uint8Array(to - from);
      const { bytesRead } = await fh.read(out, 0, out.length, from);
      return out.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  protected async readSum(i: number) {
    return readFile(this.file(`${i}.sum`), 'utf8').catch(() => null);
  }

  protected async remove(i: number) {
    await rm(this.file(i), { force: true });
    await rm(this.file(`${i}.sum`), { force: true });
  }

  protected async saveMeta(meta: StoredMeta) {
    await writeFile(this.file(META), JSON.stringify(meta));
  }

  async release(): Promise<void> {}
}

/** a WeightCache in `root` (made when missing): one folder per URL, holding its one stored version */
export function diskCache(root: string): WeightCache {
  const dirOf = (v: FileVersion) => path.join(root, folderName(v.url));
  const readMeta = async (dir: string): Promise<StoredMeta | null> =>
    JSON.parse(await readFile(path.join(dir, META), 'utf8').catch(() => 'null')) as StoredMeta | null;
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
      const meta = newMeta(v);
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
