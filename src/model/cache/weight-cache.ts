// The weight cache as the loader sees it: one entry per version of a hub file (its URL, which
// carries the revision, and its ETag), kept in chunks of CHUNK_BYTES so that a session can read
// a chunk while the next ones download. Implementations: the origin private file system
// (opfs-cache.ts, the browser) and, for tests, memory (test-support/memory-cache.ts). A failure of the storage itself
// (missing, refused, full, in use) is a BrowserCacheError; the loader then runs uncached.

export const CHUNK_BYTES = 64 * 2 ** 20;

/** the browser's file storage is missing, refused (private mode), full (quota) or in use: run uncached. The message is the browser's reason. */
export class BrowserCacheError extends Error {
  override name = 'BrowserCacheError';
}

/** a stored chunk whose bytes differ from the checksum it was stored with: the chunk is gone, the storage itself works */
export class ChunkSumError extends BrowserCacheError {
  override name = 'ChunkSumError';
}

/** one version of a hub file, and the chunks it is stored in */
export interface FileVersion {
  url: string;
  etag: string | null;
  size: number;
  chunkBytes: number;
}

export const chunkCount = (size: number, chunkBytes = CHUNK_BYTES) => Math.max(1, Math.ceil(size / chunkBytes));

/** bytes [start, end) of the file that chunk `i` holds */
export const chunkBounds = (size: number, chunkBytes: number, i: number): [number, number] => [
  i * chunkBytes,
  Math.min(size, (i + 1) * chunkBytes),
];

/** bytes of the file that chunk `i` holds */
export const chunkLength = (v: FileVersion, i: number) => Math.min(v.size, (i + 1) * v.chunkBytes) - i * v.chunkBytes;

/** one version of a hub file in the cache, chunk by chunk */
export interface StoredFile {
  /** every chunk was stored, and the entry marked so */
  readonly complete: boolean;
  /** every chunk is known to be stored (written, or found by `has`) */
  readonly allPresent: boolean;
  /** chunk `i` is stored whole */
  has(i: number): Promise<boolean>;
  /** chunk `i` from its body, stored whole or not at all; returns the bytes the body had */
  write(i: number, body: ReadableStream<Uint8Array>): Promise<number>;
  /** bytes [from, to) of stored chunk `i`; its first read checks it whole against its checksum (ChunkSumError) */
  read(i: number, from: number, to: number): Promise<Uint8Array>;
  markComplete(): Promise<void>;
  /** lets go of what keeps the chunks from being removed (open file handles) */
  release(): Promise<void>;
}

/** the store of hub files, one entry per file version */
export interface WeightCache {
  /** the version's entry, when it is stored with these chunks (whole or in part); null when not */
  match(version: FileVersion): Promise<StoredFile | null>;
  /** a new, empty entry for the version (what was stored for it goes); older versions of the URL go too, unless in use */
  put(version: FileVersion): Promise<StoredFile>;
  /** removes the version's entry (nothing when there is none) */
  delete(version: FileVersion): Promise<void>;
}

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

/** a read of a stored chunk that came back shorter than the chunk holds */
export function checkWhole(v: FileVersion, i: number, from: number, to: number, bytes: Uint8Array): Uint8Array {
  if (bytes.length !== to - from)
    throw new BrowserCacheError(`${v.url}: chunk ${i + 1} of the browser cache is shorter than stored`);
  return bytes;
}
