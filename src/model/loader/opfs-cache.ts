// The weight cache in the browser's origin private file system (layout: opfs-layout.ts, chunk
// files: opfs-stored-file.ts), and what the page asks of it without opening it for writing: the
// complete versions of a file, the bytes of a version stored so far (its chunks and each precision
// it was converted to), the heads kept with converted files, and removing a checkpoint's files or clearing it all.
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../precision.ts';
import {
  ROOT,
  convertedEtag,
  convertedUrl,
  deleteLegacyCaches,
  entriesOf,
  folders,
  hasOpfs,
  headUrl,
  readMeta,
  rootDir,
  sameVersion,
  urlFolderName,
  versionFolderName,
  versionsIn,
  writeMeta,
} from './opfs-layout.ts';
import { OpfsStoredFile } from './opfs-stored-file.ts';
import { decodeHead } from './cached-head.ts';
import type { RandomAccessFile } from './file-source.ts';
import { newMeta } from './stored-chunks.ts';
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
        const meta = newMeta(v);
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

/** why the browser stores no files for this page (no OPFS, private mode), or null when it does */
export async function fileStorageRefusal(): Promise<string | null> {
  if (!hasOpfs()) return 'this browser offers no file storage (OPFS) here';
  return navigator.storage.getDirectory().then(
    () => null,
    (e: unknown) => (e as Error).message || String(e),
  );
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

/** the heads of the file kept with its converted forms (cached-head.ts), per version (none when there is no store) */
export async function cachedHeads(url: string): Promise<{ etag: string | null; file: RandomAccessFile }[]> {
  const heads = await cachedVersions(headUrl(url));
  const read = await Promise.all(
    heads.map(async (h) => {
      try {
        const bytes = new Uint8Array(await (await h.blob()).arrayBuffer());
        return [{ etag: h.etag, file: decodeHead(bytes, url) }];
      } catch {
        return []; // an unreadable head: the header is read from the hub
      }
    }),
  );
  return read.flat();
}

/** bytes of a file version's chunks stored whole so far (by a stopped download, a run); 0 without a store */
export async function storedBytes(
  url: string,
  etag: string | null,
  size: number,
  chunkBytes = CHUNK_BYTES,
): Promise<number> {
  try {
    return (await storedOf(await rootDir(), { url, etag, size, chunkBytes })).bytes;
  } catch {
    return 0;
  }
}

/** what the cache holds of one entry: the bytes of its chunks stored whole, and whether it is marked complete */
export interface StoredAmount {
  bytes: number;
  complete: boolean;
}

/** what the browser cache holds of one version of a hub file: its chunks, and the file converted per precision */
export interface CachedFileState extends StoredAmount {
  url: string;
  /** the precisions it is stored converted to (only those with bytes stored) */
  converted: ({ precision: WeightPrecision } & StoredAmount)[];
}

const NOTHING: StoredAmount = { bytes: 0, complete: false };

/** the entry of version `v` (its size: the stored meta's, when `v.size` is null) */
async function storedOf(
  root: FileSystemDirectoryHandle,
  v: Omit<FileVersion, 'size'> & { size: number | null },
): Promise<StoredAmount> {
  const urlDir = await root.getDirectoryHandle(await urlFolderName(v.url)).catch(() => null);
  const dir = await urlDir?.getDirectoryHandle(await versionFolderName(v.etag)).catch(() => null);
  const meta = dir ? await readMeta(dir) : null;
  if (!dir || !sameVersion(meta, { ...v, size: v.size ?? meta?.size ?? -1 })) return NOTHING;
  const file = new OpfsStoredFile(dir, meta);
  let bytes = 0;
  for (let i = 0; i < chunkCount(meta.size, meta.chunkBytes); i++) if (await file.has(i)) bytes += chunkLength(meta, i);
  return { bytes, complete: meta.complete };
}

/**
 * What the browser cache holds of each file version: the chunks of the file itself and, per
 * precision, the file converted (convert/weight-converter.ts), each with its bytes. Nothing
 * (never an error) where there is no store.
 */
export async function cachedFiles(
  files: readonly { url: string; etag: string | null; size: number }[],
  chunkBytes = CHUNK_BYTES,
): Promise<CachedFileState[]> {
  const root = await rootDir().catch(() => null);
  return Promise.all(
    files.map(async ({ url, etag, size }) => {
      if (!root) return { url, ...NOTHING, converted: [] };
      const raw = await storedOf(root, { url, etag, size, chunkBytes }).catch(() => NOTHING);
      const converted = await Promise.all(
        WEIGHT_PRECISIONS.map(async (precision) => ({
          precision,
          ...(await storedOf(root, {
            url: convertedUrl(url, precision),
            etag: convertedEtag(etag),
            size: null,
            chunkBytes,
          }).catch(() => NOTHING)),
        })),
      );
      return { url, ...raw, converted: converted.filter((c) => c.bytes > 0) };
    }),
  );
}

/**
 * Removes the files from the cache: every version of their chunks and of each precision they were
 * converted to. A worker that was just stopped lets go of its chunk files a moment later.
 */
export async function removeCachedFiles(urls: readonly string[]): Promise<void> {
  if (!hasOpfs()) return;
  const root = await rootDir();
  const names = urls.flatMap((url) => [url, headUrl(url), ...WEIGHT_PRECISIONS.map((p) => convertedUrl(url, p))]);
  for (const name of names) {
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

/** removes every stored file (and the layouts of earlier versions); returns how many complete files there were */
export async function deleteCachedFiles(): Promise<number> {
  let files = 0;
  await deleteLegacyCaches();
  if (!hasOpfs()) return files;
  const top = await storageOp(() => navigator.storage.getDirectory());
  const root = await top.getDirectoryHandle(ROOT).catch(() => null);
  if (!root) return files;
  // a head (cached-head.ts) is not a file of its own to the user
  for (const urlDir of await folders(root))
    files += (await versionsIn(urlDir)).filter((v) => v.meta?.complete && !v.meta.url.endsWith('#head')).length;
  // a worker that was just stopped lets go of its chunk files a moment later
  await retried('The browser cache could not be cleared', () => top.removeEntry(ROOT, { recursive: true }));
  return files;
}
