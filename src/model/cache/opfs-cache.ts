// The weight cache in the browser's origin private file system (layout: opfs-layout.ts, chunk
// files: opfs-stored-file.ts), and what the page asks of it without opening it for writing: the
// complete versions of a file, the bytes of a version stored so far, and removing files or clearing it all.
import {
  ROOT,
  entriesOf,
  folders,
  hasOpfs,
  readMeta,
  rootDir,
  sameVersion,
  urlFolderName,
  versionFolderName,
  versionsIn,
  writeMeta,
} from './opfs-layout.ts';
import { OpfsStoredFile } from './opfs-stored-file.ts';
import { newMeta } from './stored-chunks.ts';
import {
  BrowserCacheError,
  chunkCount,
  chunkLength,
  storageOp,
  type FileVersion,
  type WeightCache,
} from './weight-cache.ts';

/** the folder of a URL's entries; null where there is none */
const urlDirOf = async (root: FileSystemDirectoryHandle, url: string) =>
  root.getDirectoryHandle(await urlFolderName(url)).catch(() => null);

/** the entry of version `v`, where its stored meta describes it (its size: the meta's, when `v.size` is null) */
async function entryOf(root: FileSystemDirectoryHandle, v: VersionQuery) {
  const urlDir = await urlDirOf(root, v.url);
  const dir = await urlDir?.getDirectoryHandle(await versionFolderName(v.etag)).catch(() => null);
  const meta = dir ? await readMeta(dir) : null;
  return dir && sameVersion(meta, { ...v, size: v.size ?? meta?.size ?? -1 })
    ? { file: new OpfsStoredFile(dir, meta), meta }
    : null;
}

/** the cache; throws BrowserCacheError where there is no OPFS */
export async function openCache(): Promise<WeightCache> {
  const root = await rootDir();
  return {
    match: (v) => storageOp(async () => (await entryOf(root, v))?.file ?? null),
    put: (v) =>
      storageOp(async () => {
        const urlDir = await root.getDirectoryHandle(await urlFolderName(v.url), { create: true });
        const version = await versionFolderName(v.etag);
        const dir = await urlDir.getDirectoryHandle(version, { create: true });
        for (const [name] of await entriesOf(dir)) await dir.removeEntry(name);
        const meta = newMeta(v);
        await writeMeta(dir, meta);
        // older versions go, unless another tab still reads or writes them
        for (const [name] of await entriesOf(urlDir))
          if (name !== version) await urlDir.removeEntry(name, { recursive: true }).catch(() => undefined);
        return new OpfsStoredFile(dir, meta);
      }),
    delete: (v) =>
      storageOp(async () => {
        const urlDir = await urlDirOf(root, v.url);
        await urlDir?.removeEntry(await versionFolderName(v.etag), { recursive: true }).catch((e: Error) => {
          if (e.name !== 'NotFoundError') throw e;
        });
      }),
  };
}

/** why the browser stores no files for this page (no OPFS, private mode), or null when it does */
export const fileStorageRefusal = (): Promise<string | null> =>
  rootDir()
    .then(() => null)
    .catch((e: Error) => e.message);

/** the versions of the file whose chunks are all stored (none when there is no store), each as one Blob over its chunks */
export async function cachedVersions(url: string): Promise<(FileVersion & { blob(): Promise<Blob> })[]> {
  try {
    const urlDir = await urlDirOf(await rootDir(), url);
    return (urlDir ? await versionsIn(urlDir) : []).flatMap(({ dir, meta }) => {
      if (!meta?.complete || meta.url !== url) return [];
      return [{ ...meta, url, blob: () => storageOp(() => chunkFiles(dir, meta)) }];
    });
  } catch {
    return [];
  }
}

/** a version's chunk files as one Blob (a page reading a header has no sync handles) */
async function chunkFiles(dir: FileSystemDirectoryHandle, v: FileVersion): Promise<Blob> {
  const files = Array.from({ length: chunkCount(v.size, v.chunkBytes) }, async (_, i) =>
    (await dir.getFileHandle(String(i))).getFile(),
  );
  return new Blob(await Promise.all(files));
}

/** what the cache holds of one entry: the bytes of its chunks stored whole, and whether it is marked complete */
export interface StoredAmount {
  bytes: number;
  complete: boolean;
}

const NOTHING: StoredAmount = { bytes: 0, complete: false };

/** an entry's version, its size left open (null: whatever size the stored meta says) */
export type VersionQuery = Omit<FileVersion, 'size'> & { size: number | null };

/** what the cache holds of each version: bytes of its chunks stored whole so far, and whether complete; nothing without a store */
export async function storedAmounts(versions: readonly VersionQuery[]): Promise<StoredAmount[]> {
  const root = await rootDir().catch(() => null);
  return Promise.all(versions.map((v) => (root ? storedOf(root, v).catch(() => NOTHING) : NOTHING)));
}

/** what the cache holds of version `v` */
async function storedOf(root: FileSystemDirectoryHandle, v: VersionQuery): Promise<StoredAmount> {
  const entry = await entryOf(root, v);
  if (!entry) return NOTHING;
  const { file, meta } = entry;
  let bytes = 0;
  for (let i = 0; i < chunkCount(meta.size, meta.chunkBytes); i++) if (await file.has(i)) bytes += chunkLength(meta, i);
  return { bytes, complete: meta.complete };
}

/** Removes every version of the entries of these URLs. A worker that was just stopped lets go of its chunk files a moment later. */
export async function removeCachedUrls(urls: readonly string[]): Promise<void> {
  if (!hasOpfs()) return;
  const root = await rootDir();
  for (const name of urls) {
    const folder = await urlFolderName(name);
    await retried('The files could not be removed from the browser cache', () =>
      root.removeEntry(folder, { recursive: true }).catch((e: Error) => {
        if (e.name !== 'NotFoundError') throw e;
      }),
    );
  }
}

/** `op` tried again for two seconds while it fails (a file still held open); then the failure, said as `what` */
async function retried(what: string, op: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (e) {
      if (attempt >= 20) throw new BrowserCacheError(`${what}: ${(e as Error).message}`, { cause: e });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** removes every stored file; returns how many complete files there were */
export async function deleteCachedFiles(): Promise<number> {
  let files = 0;
  if (!hasOpfs()) return files;
  const top = await storageOp(() => navigator.storage.getDirectory());
  const root = await top.getDirectoryHandle(ROOT).catch(() => null);
  if (!root) return files;
  for (const urlDir of await folders(root)) files += (await versionsIn(urlDir)).filter((v) => v.meta?.complete).length;
  // a worker that was just stopped lets go of its chunk files a moment later
  await retried('The browser cache could not be cleared', () => top.removeEntry(ROOT, { recursive: true }));
  return files;
}
