// Hub files in the browser's Cache Storage (page and worker both have it), keyed by their resolve
// URL (which carries the revision) and checked against the hub's ETag by the caller.
// A file is stored in chunks of CHUNK_BYTES: Chromium refuses single entries of some hundreds of
// MB ("Failed to execute 'put' on 'Cache': Unexpected internal error"), and chunks read back as one
// disk-backed Blob. A small entry at the file's own URL, written last, says the file is complete.

import type { FileSource } from './file-source.ts';
import { hubFileUrl, hubSource, readPrefix, type HubRepo } from './hub-files.ts';

const CACHE_PREFIX = 'hub-console-preview-weights';
export const CACHE_NAME = `${CACHE_PREFIX}-v2`;
export const CHUNK_BYTES = 64 * 2 ** 20;
const SIZE = 'x-hub-console-size';
const ETAG = 'x-hub-console-etag';
const CHUNKS = 'x-hub-console-chunks';

/** Cache Storage is missing, refused (private mode) or full (quota, entry size): run uncached. */
export class BrowserCacheError extends Error {
  override name = 'BrowserCacheError';
}

export interface CachedFile {
  url: string;
  etag: string | null;
  size: number;
  /** the whole file as one Blob over the cached chunks (read from disk as it is sliced) */
  blob(): Promise<Blob>;
  /** the first `n` bytes; only the chunks holding them are read */
  prefix(n: number): Promise<Uint8Array>;
}

const chunkUrl = (url: string, i: number) => `${url}${url.includes('?') ? '&' : '?'}hub-console-chunk=${i}`;

async function openCache(): Promise<Cache> {
  if (typeof caches === 'undefined') throw new BrowserCacheError('this browser offers no Cache Storage here');
  try {
    return await caches.open(CACHE_NAME);
  } catch (e) {
    throw new BrowserCacheError(`the browser refused Cache Storage (${(e as Error).message})`, { cause: e });
  }
}

/** the cached file, or null when it is not (completely) cached or there is no cache */
export async function cachedFile(url: string): Promise<CachedFile | null> {
  const cache = await openCache().catch(() => null);
  const manifest = await cache?.match(url);
  if (!cache || !manifest) return null;
  const size = Number(manifest.headers.get(SIZE));
  const chunks = Number(manifest.headers.get(CHUNKS));
  const chunk = async (i: number) => {
    const r = await cache.match(chunkUrl(url, i));
    if (!r) throw new BrowserCacheError(`${url}: chunk ${i} of ${chunks} is gone from the browser cache; clear the cache and download again`);
    return r;
  };
  return {
    url,
    size,
    etag: manifest.headers.get(ETAG),
    blob: async () => new Blob(await Promise.all(Array.from({ length: chunks }, async (_, i) => (await chunk(i)).blob()))),
    async prefix(n) {
      const out = new Uint8Array(Math.min(n, size));
      for (let i = 0, got = 0; got < out.length; i++) {
        const part = await readPrefix((await chunk(i)).body, out.length - got);
        out.set(part, got);
        got += part.length;
        if (part.length === 0) break;
      }
      return out;
    },
  };
}

/**
 * Stores a download of `size` bytes as it streams (never the whole file in memory). A failure of
 * the body rethrows its error; a failure of the cache throws BrowserCacheError. Either way the
 * chunks written are removed, so a file is cached completely or not at all.
 */
export async function cacheFile(url: string, body: ReadableStream<Uint8Array>, size: number, etag: string | null): Promise<void> {
  const cache = await openCache();
  const reader = body.getReader();
  let bodyError: unknown = null;
  const read = async () => {
    try {
      return await reader.read();
    } catch (e) {
      bodyError = e;
      throw e;
    }
  };
  let leftover: Uint8Array | null = null;
  const chunks = Math.max(1, Math.ceil(size / CHUNK_BYTES));
  try {
    for (let i = 0; i < chunks; i++) {
      let left = Math.min(CHUNK_BYTES, size - i * CHUNK_BYTES);
      const part = new ReadableStream<Uint8Array>({
        async pull(ctl) {
          if (left === 0) return ctl.close();
          let v = leftover;
          leftover = null;
          if (!v) {
            const r = await read();
            if (r.done) throw (bodyError = new Error(`${url}: the download ended ${left} bytes short of chunk ${i + 1} of ${chunks}`));
            v = r.value;
          }
          if (v.byteLength > left) leftover = v.subarray(left);
          ctl.enqueue(v.byteLength > left ? v.subarray(0, left) : v);
          left -= Math.min(left, v.byteLength);
        },
      });
      await cache.put(chunkUrl(url, i), new Response(part, { headers: { 'content-type': 'application/octet-stream' } }));
    }
    if (leftover || !(await read()).done) throw (bodyError = new Error(`${url}: the hub sent more than the announced ${size} bytes`));
    const headers = new Headers({ [SIZE]: String(size), [CHUNKS]: String(chunks) });
    if (etag) headers.set(ETAG, etag);
    await cache.put(url, new Response(null, { headers }));
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    await Promise.all(Array.from({ length: chunks }, (_, i) => cache.delete(chunkUrl(url, i)).catch(() => false)));
    if (bodyError) throw bodyError;
    if ((e as Error).name === 'AbortError') throw e;
    throw new BrowserCacheError(`the browser cache could not store ${url} (${(e as Error).message})`, { cause: e });
  }
}

/** removes every cached file (and older cache layouts); returns how many files there were */
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

/** hub files, read from the browser cache where they are cached completely */
export function cachedHubSource(repo: HubRepo): FileSource {
  const hub = hubSource(repo);
  return {
    describe: hub.describe,
    async read(file, opts) {
      const hit = await cachedFile(hubFileUrl(repo, file));
      if (!hit) return hub.read(file, opts);
      const bytes = new Uint8Array(await (await hit.blob()).arrayBuffer());
      opts?.onProgress?.({ file, loaded: bytes.length, total: bytes.length });
      return bytes;
    },
  };
}
