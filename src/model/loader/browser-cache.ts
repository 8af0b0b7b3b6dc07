// Hub files kept in the browser's origin private file system (OPFS): a folder per file URL (the
// URL carries the revision) with a folder per version of the file (its ETag), holding `meta.json`
// (ETag, size, chunk size, and whether every chunk is there) and one file per chunk of
// CHUNK_BYTES. Versions never share a folder, so two tabs reading two versions cannot mix their
// chunks; a new version removes the older ones it finds unused. A worker writes chunks through
// sync access handles and reads them through read-only ones, which other readers may share:
// Chromium read preview-s's 869 MB back from Cache Storage at about 195 MB/s (4.5 s of a reload's
// 8.6 s session), from OPFS in about a second. The page, which has no sync handles, writes through
// a writable stream (atomic on close) and reads through getFile(). Measured in Chromium 156: an
// open sync handle of any mode keeps a file from being removed, moved or written by anyone else,
// a read-write one also from other sync handles; getFile() is never refused.

const ROOT = 'hub-console-preview-weights-v4';
/** Cache Storage layouts before v3: deleted with the cache */
const LEGACY_CACHE_PREFIX = 'hub-console-preview-weights';
/** v3: one folder per URL, versions replaced in place */
const LEGACY_ROOTS = ['hub-console-preview-weights-v3'];
export const CHUNK_BYTES = 64 * 2 ** 20;

/** the browser's file storage is missing, refused (private mode), full (quota) or in use: run uncached. The message is the browser's reason. */
export class BrowserCacheError extends Error {
  override name = 'BrowserCacheError';
}

export const chunkCount = (size: number, chunkBytes = CHUNK_BYTES) => Math.max(1, Math.ceil(size / chunkBytes));

/** bytes [start, end) of the file that chunk `i` holds */
export const chunkBounds = (size: number, chunkBytes: number, i: number): [number, number] => [
  i * chunkBytes,
  Math.min(size, (i + 1) * chunkBytes),
];

interface Meta {
  url: string;
  etag: string | null;
  size: number;
  chunkBytes: number;
  complete: boolean;
}

/** the parts of FileSystemSyncAccessHandle used here (workers only) */
interface SyncHandle {
  read(buffer: Uint8Array, opts: { at: number }): number;
  write(buffer: Uint8Array, opts: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
/** 'read-only' handles share their file (Chromium 121 on; earlier versions ignore the mode) */
type FileHandle = FileSystemFileHandle & {
  createSyncAccessHandle?(opts?: { mode: 'readwrite' | 'read-only' }): Promise<SyncHandle>;
  move?(name: string): Promise<void>;
};

/** runs a storage operation; any failure of the storage itself becomes a BrowserCacheError */
export async function storageOp<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    signal?.throwIfAborted();
    if (e instanceof BrowserCacheError || (e as Error).name === 'AbortError') throw e;
    throw new BrowserCacheError((e as Error).message || String(e), { cause: e });
  }
}

async function rootDir(): Promise<FileSystemDirectoryHandle> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function')
    throw new BrowserCacheError('this browser offers no file storage (OPFS) here');
  return storageOp(async () => (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true }));
}

async function folderName(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const versionName = (etag: string | null) => folderName(`etag ${etag ?? '(none)'}`);

type Entries = AsyncIterable<[string, FileSystemHandle]>;
/** a folder's entries, listed before any of them is removed (removing while iterating may skip some) */
async function entriesOf(dir: FileSystemDirectoryHandle): Promise<[string, FileSystemHandle][]> {
  const out: [string, FileSystemHandle][] = [];
  for await (const e of (dir as unknown as { entries(): Entries }).entries()) out.push(e);
  return out;
}

const folders = async (dir: FileSystemDirectoryHandle) =>
  (await entriesOf(dir)).flatMap(([, h]) => (h.kind === 'directory' ? [h as FileSystemDirectoryHandle] : []));

/** the version folders in a file URL's folder, with their meta */
async function versionsIn(
  urlDir: FileSystemDirectoryHandle,
): Promise<{ dir: FileSystemDirectoryHandle; meta: Meta | null }[]> {
  return Promise.all((await folders(urlDir)).map(async (dir) => ({ dir, meta: await readMeta(dir) })));
}

async function readMeta(dir: FileSystemDirectoryHandle): Promise<Meta | null> {
  try {
    return JSON.parse(await (await (await dir.getFileHandle('meta.json')).getFile()).text()) as Meta;
  } catch {
    return null;
  }
}

async function writeMeta(dir: FileSystemDirectoryHandle, meta: Meta): Promise<void> {
  const w = await (await dir.getFileHandle('meta.json', { create: true })).createWritable();
  await w.write(JSON.stringify(meta));
  await w.close();
}

/** the store of hub files; `openCache` gives it, null-free, or throws BrowserCacheError */
export interface WeightCache {
  file(url: string, etag: string | null, size: number, chunkBytes?: number): Promise<StoredFile>;
}

/** the layouts of earlier versions (Cache Storage, then OPFS): gigabytes nothing reads any more */
async function deleteLegacyCaches(): Promise<void> {
  if (typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function') {
    const top = await navigator.storage.getDirectory();
    for (const name of LEGACY_ROOTS) await top.removeEntry(name, { recursive: true }).catch(() => undefined);
  }
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) if (name.startsWith(LEGACY_CACHE_PREFIX)) await caches.delete(name);
}

export async function openCache(): Promise<WeightCache> {
  const root = await rootDir();
  void deleteLegacyCaches().catch(() => undefined);
  return {
    file: (url, etag, size, chunkBytes = CHUNK_BYTES) =>
      storageOp(async () => {
        const urlDir = await root.getDirectoryHandle(await folderName(url), { create: true });
        const version = await versionName(etag);
        const dir = await urlDir.getDirectoryHandle(version, { create: true });
        const stored = await readMeta(dir);
        if (stored && stored.etag === etag && stored.size === size && stored.chunkBytes === chunkBytes)
          return new StoredFile(dir, stored);
        // this version not stored yet (or stored in other chunks): start it afresh
        for (const [name] of await entriesOf(dir)) await dir.removeEntry(name);
        const meta = { url, etag, size, chunkBytes, complete: false };
        await writeMeta(dir, meta);
        // older versions go, unless another tab still reads or writes them
        for (const [name] of await entriesOf(urlDir))
          if (name !== version) await urlDir.removeEntry(name, { recursive: true }).catch(() => undefined);
        return new StoredFile(dir, meta);
      }),
  };
}

/** one version of a hub file in the store, chunk by chunk */
export class StoredFile {
  private readonly handles = new Map<number, Promise<SyncHandle>>();
  private readonly present = new Set<number>();

  constructor(
    private readonly dir: FileSystemDirectoryHandle,
    private meta: Meta,
  ) {}

  get complete(): boolean {
    return this.meta.complete;
  }

  /** every chunk is known to be stored (written, or found by `has`) */
  get allPresent(): boolean {
    return this.present.size === chunkCount(this.meta.size, this.meta.chunkBytes);
  }

  chunkLength(i: number): number {
    const [start, end] = chunkBounds(this.meta.size, this.meta.chunkBytes, i);
    return end - start;
  }

  /** chunk `i` is stored whole */
  async has(i: number): Promise<boolean> {
    if (this.present.has(i)) return true;
    const f = await this.dir.getFileHandle(String(i)).catch(() => null);
    if (!f || (await f.getFile()).size !== this.chunkLength(i)) return false;
    this.present.add(i);
    return true;
  }

  /**
   * Chunk `i` from its body: written beside it, then renamed, so a chunk is whole or absent. When
   * the write fails (quota, a lost connection) the body is cancelled and the partial file removed.
   */
  async write(i: number, body: ReadableStream<Uint8Array>): Promise<number> {
    const part = `${i}.part`;
    const reader = body.getReader();
    try {
      const f = (await this.dir.getFileHandle(part, { create: true })) as FileHandle;
      const written = await writeFrom(reader, f);
      if (written !== this.chunkLength(i)) {
        await this.dir.removeEntry(part).catch(() => undefined);
        return written;
      }
      await this.dir.removeEntry(String(i)).catch(() => undefined);
      await f.move!(String(i));
      this.present.add(i);
      return written;
    } catch (e) {
      await reader.cancel().catch(() => undefined);
      await this.dir.removeEntry(part).catch(() => undefined);
      throw e;
    }
  }

  /** bytes [from, to) of stored chunk `i` */
  async read(i: number, from: number, to: number): Promise<Uint8Array> {
    // the handle is kept: each lookup is a round trip to the browser process
    let h = this.handles.get(i);
    if (!h) {
      const f = (await this.dir.getFileHandle(String(i))) as FileHandle;
      if (!f.createSyncAccessHandle)
        return this.whole(i, from, to, new Uint8Array(await (await f.getFile()).slice(from, to).arrayBuffer()));
      h = f.createSyncAccessHandle({ mode: 'read-only' });
      this.handles.set(i, h);
      h.catch(() => this.handles.delete(i));
    }
    const out = new Uint8Array(to - from);
    return this.whole(i, from, to, out.subarray(0, (await h).read(out, { at: from })));
  }

  private whole(i: number, from: number, to: number, bytes: Uint8Array): Uint8Array {
    if (bytes.length !== to - from)
      throw new BrowserCacheError(`${this.meta.url}: chunk ${i + 1} of the browser cache is shorter than stored`);
    return bytes;
  }

  /** the whole file as one Blob over its chunk files (for a page reading a header) */
  async blob(): Promise<Blob> {
    const parts = await Promise.all(
      Array.from({ length: chunkCount(this.meta.size, this.meta.chunkBytes) }, async (_, i) =>
        (await this.dir.getFileHandle(String(i))).getFile(),
      ),
    );
    return new Blob(parts);
  }

  async markComplete(): Promise<void> {
    const meta = { ...this.meta, complete: true };
    await writeMeta(this.dir, meta);
    this.meta = meta;
  }

  /** closes the sync handles (each keeps its chunk file from being removed, so from a cleared cache) */
  async release(): Promise<void> {
    const open = [...this.handles.values()];
    this.handles.clear();
    for (const h of await Promise.allSettled(open)) if (h.status === 'fulfilled') h.value.close();
  }
}

/** the reader's bytes into file `f` (emptied first); returns how many were written */
async function writeFrom(reader: ReadableStreamDefaultReader<Uint8Array>, f: FileHandle): Promise<number> {
  let written = 0;
  if (f.createSyncAccessHandle) {
    const h = await f.createSyncAccessHandle();
    try {
      h.truncate(0);
      for (let r = await reader.read(); !r.done; r = await reader.read()) written += h.write(r.value, { at: written });
      h.flush();
    } finally {
      h.close();
    }
    return written;
  }
  const w = (await f.createWritable()).getWriter();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      await w.write(r.value);
      written += r.value.length;
    }
    await w.close();
  } catch (e) {
    await w.abort(e).catch(() => undefined);
    throw e;
  }
  return written;
}

export interface CachedFile {
  url: string;
  etag: string | null;
  size: number;
  /** the whole file as one Blob over the stored chunks (read from disk as it is sliced) */
  blob(): Promise<Blob>;
}

/** the versions of the file whose chunks are all stored (none when there is no store) */
export async function cachedVersions(url: string): Promise<CachedFile[]> {
  try {
    const urlDir = await (await rootDir()).getDirectoryHandle(await folderName(url)).catch(() => null);
    return (urlDir ? await versionsIn(urlDir) : []).flatMap(({ dir, meta }) => {
      if (!meta?.complete || meta.url !== url) return [];
      const file = new StoredFile(dir, meta);
      return [{ url, size: meta.size, etag: meta.etag, blob: () => storageOp(() => file.blob()) }];
    });
  } catch {
    return [];
  }
}

/** bytes of a file version's chunks stored whole so far (by a stopped download, a run); 0 without a store */
export async function storedBytes(
  url: string,
  etag: string | null,
  size: number,
  chunkBytes = CHUNK_BYTES,
): Promise<number> {
  try {
    const urlDir = await (await rootDir()).getDirectoryHandle(await folderName(url));
    const dir = await urlDir.getDirectoryHandle(await versionName(etag));
    const meta = await readMeta(dir);
    if (!meta || meta.url !== url || meta.etag !== etag || meta.size !== size || meta.chunkBytes !== chunkBytes)
      return 0;
    const file = new StoredFile(dir, meta);
    let bytes = 0;
    for (let i = 0; i < chunkCount(size, chunkBytes); i++) if (await file.has(i)) bytes += file.chunkLength(i);
    return bytes;
  } catch {
    return 0;
  }
}

/** removes every stored file (and the layouts of earlier versions); returns how many complete files there were */
export async function deleteCachedFiles(): Promise<number> {
  let files = 0;
  await deleteLegacyCaches();
  if (typeof navigator === 'undefined' || typeof navigator.storage?.getDirectory !== 'function') return files;
  const top = await storageOp(() => navigator.storage.getDirectory());
  const root = await top.getDirectoryHandle(ROOT).catch(() => null);
  if (!root) return files;
  for (const urlDir of await folders(root)) files += (await versionsIn(urlDir)).filter((v) => v.meta?.complete).length;
  // a worker that was just stopped lets go of its chunk files a moment later
  for (let attempt = 0; ; attempt++) {
    try {
      await top.removeEntry(ROOT, { recursive: true });
      return files;
    } catch (e) {
      if (attempt >= 20)
        throw new BrowserCacheError(`The browser cache could not be cleared: ${(e as Error).message}`, { cause: e });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
