// Where the weight cache lies in the origin private file system (OPFS): under ROOT a folder per
// file URL (the URL carries the revision) with a folder per version of the file (its ETag),
// holding `meta.json` (the version, and whether every chunk is there) and one file per chunk.
// Versions never share a folder, so two tabs reading two versions cannot mix their chunks.
// Folder names are SHA-256 digests: URLs and ETags hold characters file names may not.
import { BrowserCacheError, storageOp, type FileVersion } from './weight-cache.ts';
import type { StoredMeta } from './stored-chunks.ts';

export const ROOT = 'hub-console-preview-weights-v4';

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
): Promise<{ dir: FileSystemDirectoryHandle; meta: StoredMeta | null }[]> {
  return Promise.all((await folders(urlDir)).map(async (dir) => ({ dir, meta: await readMeta(dir) })));
}

export async function readMeta(dir: FileSystemDirectoryHandle): Promise<StoredMeta | null> {
  try {
    return JSON.parse(await (await (await dir.getFileHandle('meta.json')).getFile()).text()) as StoredMeta;
  } catch {
    return null;
  }
}

export const writeMeta = (dir: FileSystemDirectoryHandle, meta: StoredMeta) =>
  writeText(dir, 'meta.json', JSON.stringify(meta));

/** a small file written whole (atomic on close) */
export async function writeText(dir: FileSystemDirectoryHandle, name: string, text: string): Promise<void> {
  const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
  await w.write(text);
  await w.close();
}

/** the stored meta describes this version in these chunks */
export const sameVersion = (meta: StoredMeta | null, v: FileVersion): meta is StoredMeta =>
  !!meta && meta.url === v.url && meta.etag === v.etag && meta.size === v.size && meta.chunkBytes === v.chunkBytes;
