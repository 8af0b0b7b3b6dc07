// The weight cache in the browser's origin private file system (layout: opfs-layout.ts, chunk
// files: opfs-stored-file.ts), and what the page asks of it without opening it for writing: the
// complete versions of a file, the bytes of a version stored so far, and clearing it.
import {
  ROOT,
  deleteLegacyCaches,
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
import {
  BrowserCacheError,
  CHUNK_BYTES,
  chunkCount,
  chunkLength,
  storageOp,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from './weight-cache.ts';

function opfsCache(root: FileSystemDirectoryHandle): WeightCache {
  const urlFolder = async (v: FileVersion, create: boolean) =>
    root.getDirectoryHandle(await urlFolderName(v.url), { create });
  return {
    match: (v) =>
      storageOp(async () => {
        const urlDir = await urlFolder(v, false).catch(() => null);
        const dir = await urlDir?.getDirectoryHandle(await versionFolderName(v.etag)).catch(() => null);
        if (!dir) return null;
        const meta = await readMeta(dir);
        return sameVersion(meta, v) ? new OpfsStoredFile(dir, meta) : null;
      }),
    put: (v) =>
      storageOp(async () => {
        const urlDir = await urlFolder(v, true);
        const version = await versionFolderName(v.etag);
        const dir = await urlDir.getDirectoryHandle(version, { create: true });
        for (const [name] of await entriesOf(dir)) await dir.removeEntry(name);
        const meta = { url: v.url, etag: v.etag, size: v.size, chunkBytes: v.chunkBytes, complete: false };
        await writeMeta(dir, meta);
        // older versions go, unless another tab still reads or writes them
        for (const [name] of await entriesOf(urlDir))
          if (name !== version) await urlDir.removeEntry(name, { recursive: true }).catch(() => undefined);
        return new OpfsStoredFile(dir, meta);
      }),
    delete: (v) =>
      storageOp(async () => {
        const urlDir = await urlFolder(v, false).catch(() => null);
        await urlDir?.removeEntry(await versionFolderName(v.etag), { recursive: true }).catch((e: Error) => {
          if (e.name !== 'NotFoundError') throw e;
        });
      }),
  };
}

/** the cache, its layouts of earlier versions going meanwhile; throws BrowserCacheError where there is no OPFS */
export async function openCache(): Promise<WeightCache> {
  const root = await rootDir();
  void deleteLegacyCaches().catch(() => undefined);
  return opfsCache(root);
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
    const urlDir = await (await rootDir()).getDirectoryHandle(await urlFolderName(url)).catch(() => null);
    return (urlDir ? await versionsIn(urlDir) : []).flatMap(({ dir, meta }) => {
      if (!meta?.complete || meta.url !== url) return [];
      const file: StoredFile = new OpfsStoredFile(dir, meta);
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
    const version = { url, etag, size, chunkBytes };
    const file = await opfsCache(await rootDir()).match(version);
    let bytes = 0;
    for (let i = 0; file && i < chunkCount(size, chunkBytes); i++)
      if (await file.has(i)) bytes += chunkLength(version, i);
    return bytes;
  } catch {
    return 0;
  }
}

/** removes every stored file (and the layouts of earlier versions); returns how many complete files there were */
export async function deleteCachedFiles(): Promise<number> {
  let files = 0;
  await deleteLegacyCaches();
  if (!hasOpfs()) return files;
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
