// Where the weight cache lies in the origin private file system (OPFS): under ROOT a folder per
// file URL (the URL carries the revision) with a folder per version of the file (its ETag),
// holding `meta.json` (the version, and whether every chunk is there) and one file per chunk.
// Versions never share a folder, so two tabs reading two versions cannot mix their chunks.
// A file converted for a precision is an entry of its own (convertedVersion), and so is its head (headVersion).
// Folder names are SHA-256 digests: URLs and ETags hold characters file names may not.
import { BrowserCacheError, CHUNK_BYTES, storageOp, type FileVersion } from './weight-cache.ts';
import { CONVERSION_FORMAT } from '../convert/converted-file.ts';
import type { StoredMeta } from './stored-chunks.ts';

export const ROOT = 'hub-console-preview-weights-v4';
/** Cache Storage layouts before v3: deleted with the cache */
const LEGACY_CACHE_PREFIX = 'hub-console-preview-weights';
/** v3: one folder per URL, versions replaced in place */
const LEGACY_ROOTS = ['hub-console-preview-weights-v3'];

/**
 * The entry of a checkpoint file converted for a precision (convert/converted-file.ts): a URL of
 * its own per precision (so each precision keeps its own converted bytes beside the file's chunks)
 * and a version per source ETag and conversion format (a new one replaces the older).
 */
export const convertedVersion = (
  source: { url: string; etag: string | null },
  precision: string,
  size: number,
  chunkBytes = CHUNK_BYTES,
): FileVersion => ({ url: convertedUrl(source.url, precision), etag: convertedEtag(source.etag), size, chunkBytes });

export const convertedUrl = (url: string, precision: string) => `${url}#converted-${precision}`;

/**
 * The entry of a file's safetensors head (cached-head.ts), kept when the file is stored converted:
 * a later visit reads the header from it, asking the hub for the ETag alone.
 */
export const headVersion = (source: { url: string; etag: string | null }, bytes: number): FileVersion => ({
  url: headUrl(source.url),
  etag: source.etag,
  size: bytes,
  chunkBytes: CHUNK_BYTES,
});
export const headUrl = (url: string) => `${url}#head`;
export const convertedEtag = (etag: string | null) => `${etag ?? '(none)'} ${CONVERSION_FORMAT}`;

export type Meta = StoredMeta;

export const hasOpfs = () => typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';

export async function rootDir(): Promise<FileSystemDirectoryHandle> {
  if (!hasOpfs()) throw new BrowserCacheError('this browser offers no file storage (OPFS) here');
  return storageOp(async () => (await navigator.storage.getDirectory()).getDirectoryHandle(ROOT, { create: true }));
}

async function digestName(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const urlFolderName = (url: string) => digestName(url);
export const versionFolderName = (etag: string | null) => digestName(`etag ${etag ?? '(none)'}`);

type Entries = AsyncIterable<[string, FileSystemHandle]>;
/** a folder's entries, listed before any of them is removed (removing while iterating may skip some) */
export async function entriesOf(dir: FileSystemDirectoryHandle): Promise<[string, FileSystemHandle][]> {
  const out: [string, FileSystemHandle][] = [];
  for await (const e of (dir as unknown as { entries(): Entries }).entries()) out.push(e);
  return out;
}

export const folders = async (dir: FileSystemDirectoryHandle) =>
  (await entriesOf(dir)).flatMap(([, h]) => (h.kind === 'directory' ? [h as FileSystemDirectoryHandle] : []));

/** the version folders in a file URL's folder, with their meta */
export async function versionsIn(
  urlDir: FileSystemDirectoryHandle,
): Promise<{ dir: FileSystemDirectoryHandle; meta: Meta | null }[]> {
  return Promise.all((await folders(urlDir)).map(async (dir) => ({ dir, meta: await readMeta(dir) })));
}

export async function readMeta(dir: FileSystemDirectoryHandle): Promise<Meta | null> {
  try {
    return JSON.parse(await (await (await dir.getFileHandle('meta.json')).getFile()).text()) as Meta;
  } catch {
    return null;
  }
}

export const writeMeta = (dir: FileSystemDirectoryHandle, meta: Meta) =>
  writeText(dir, 'meta.json', JSON.stringify(meta));

/** a small file written whole (atomic on close) */
export async function writeText(dir: FileSystemDirectoryHandle, name: string, text: string): Promise<void> {
  const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
  await w.write(text);
  await w.close();
}

/** the stored meta describes this version in these chunks */
export const sameVersion = (meta: Meta | null, v: FileVersion): meta is Meta =>
  !!meta && meta.url === v.url && meta.etag === v.etag && meta.size === v.size && meta.chunkBytes === v.chunkBytes;

/** the layouts of earlier versions (Cache Storage, then OPFS): gigabytes nothing reads any more */
export async function deleteLegacyCaches(): Promise<void> {
  if (hasOpfs()) {
    const top = await navigator.storage.getDirectory();
    for (const name of LEGACY_ROOTS) await top.removeEntry(name, { recursive: true }).catch(() => undefined);
  }
  if (typeof caches === 'undefined') return;
  for (const name of await caches.keys()) if (name.startsWith(LEGACY_CACHE_PREFIX)) await caches.delete(name);
}
