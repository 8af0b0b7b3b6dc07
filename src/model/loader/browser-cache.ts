// Hub files in the browser's Cache Storage (page and worker both have it), keyed by their resolve
// URL (which carries the revision). A file is stored in chunks of CHUNK_BYTES, each keyed by the
// file's ETag too, so chunks of different versions never mix: Chromium refuses single entries of
// some hundreds of MB ("Failed to execute 'put' on 'Cache': Unexpected internal error"), chunks
// arrive by Range request without passing through JavaScript, and they read back as one
// disk-backed Blob. An entry at the file's own URL, written after the last chunk, marks it complete.

const CACHE_PREFIX = 'hub-console-preview-weights';
export const CACHE_NAME = `${CACHE_PREFIX}-v2`;
export const CHUNK_BYTES = 64 * 2 ** 20;
const SIZE = 'x-hub-console-size';
const ETAG = 'x-hub-console-etag';
const CHUNK = 'x-hub-console-chunk-bytes';

/** Cache Storage is missing, refused (private mode) or full (quota, entry size): run uncached. The message is the browser's reason. */
export class BrowserCacheError extends Error {
  override name = 'BrowserCacheError';
}

export const chunkCount = (size: number, chunkBytes = CHUNK_BYTES) => Math.max(1, Math.ceil(size / chunkBytes));

export const chunkKey = (url: string, etag: string | null, i: number) => `${url}${url.includes('?') ? '&' : '?'}hub-console-chunk=${i}&etag=${encodeURIComponent(etag ?? '')}`;

export async function openCache(): Promise<Cache> {
  if (typeof caches === 'undefined') throw new BrowserCacheError('this browser offers no Cache Storage here');
  try {
    return await caches.open(CACHE_NAME);
  } catch (e) {
    throw new BrowserCacheError(`Cache Storage refused: ${(e as Error).message}`, { cause: e });
  }
}

/** runs a cache write; any failure of the cache itself becomes a BrowserCacheError */
export async function cacheWrite<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    signal?.throwIfAborted();
    if (e instanceof BrowserCacheError || (e as Error).name === 'AbortError') throw e;
    throw new BrowserCacheError((e as Error).message, { cause: e });
  }
}

export interface CachedFile {
  url: string;
  etag: string | null;
  size: number;
  /** the whole file as one Blob over the cached chunks (read from disk as it is sliced) */
  blob(): Promise<Blob>;
}

/** the file when all its chunks are cached; null when not (or there is no cache) */
export async function cachedFile(url: string): Promise<CachedFile | null> {
  const cache = await openCache().catch(() => null);
  const manifest = await cache?.match(url);
  if (!cache || !manifest) return null;
  const size = Number(manifest.headers.get(SIZE));
  const etag = manifest.headers.get(ETAG);
  const chunks = chunkCount(size, Number(manifest.headers.get(CHUNK)) || CHUNK_BYTES);
  return {
    url,
    size,
    etag,
    async blob() {
      const parts = await Promise.all(
        Array.from({ length: chunks }, async (_, i) => {
          const r = await cache.match(chunkKey(url, etag, i));
          if (!r) throw new BrowserCacheError(`${url}: chunk ${i + 1} is gone from the browser cache; clear the cache and download again`);
          return r.blob();
        }),
      );
      return new Blob(parts);
    },
  };
}

/** marks a file whose chunks are all cached as complete */
export async function markCached(cache: Cache, url: string, size: number, etag: string | null, chunkBytes = CHUNK_BYTES): Promise<void> {
  const headers = new Headers({ [SIZE]: String(size), [CHUNK]: String(chunkBytes) });
  if (etag) headers.set(ETAG, etag);
  await cacheWrite(() => cache.put(url, new Response(null, { headers })));
}

/** removes every cached file (and older cache layouts); returns how many complete files there were */
export async function deleteCachedFiles(): Promise<number> {
  if (typeof caches === 'undefined') return 0;
  let files = 0;
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX)) continue;
    const keys = await (await caches.open(name)).keys();
    files += keys.filter((k) => !k.url.includes('hub-console-chunk=')).length;
    await caches.delete(name);
  }
  return files;
}
