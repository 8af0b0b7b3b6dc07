// Checkpoint files in the browser's Cache Storage, keyed by their resolve URL (which carries the
// revision) and checked against the hub's ETag, so a reload does not download the weights again.
// Runs on the page and in the worker (Cache Storage exists in both).

export const CACHE_NAME = 'hub-console-preview-weights-v1';
const ETAG = 'x-preview-etag';
const SIZE = 'x-preview-size';

export interface CachedFile {
  url: string;
  etag: string | null;
  size: number;
  response: Response;
}

const hasCaches = (): boolean => typeof caches !== 'undefined';

export async function cachedFile(url: string): Promise<CachedFile | null> {
  if (!hasCaches()) return null;
  const cache = await caches.open(CACHE_NAME);
  const r = await cache.match(url);
  if (!r) return null;
  return { url, etag: r.headers.get(ETAG), size: Number(r.headers.get(SIZE) ?? r.headers.get('content-length') ?? 0), response: r };
}

export async function putCachedFile(url: string, bytes: Uint8Array<ArrayBuffer>, etag: string | null): Promise<void> {
  if (!hasCaches()) return;
  const cache = await caches.open(CACHE_NAME);
  const headers = new Headers({ 'content-type': 'application/octet-stream', [SIZE]: String(bytes.byteLength) });
  if (etag) headers.set(ETAG, etag);
  await cache.put(url, new Response(bytes, { status: 200, headers }));
}

/**
 * Streams a download into the cache without holding the file in memory; the entry is removed
 * again when the stream ends short of `size` bytes. Without Cache Storage the stream is drained.
 */
export async function putCachedStream(url: string, body: ReadableStream<Uint8Array>, size: number, etag: string | null): Promise<number> {
  let loaded = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        loaded += chunk.byteLength;
        if (loaded > size) throw new Error(`${url}: the hub sent more than the announced ${size} bytes`);
        ctl.enqueue(chunk);
      },
    }),
  );
  if (!hasCaches()) {
    const reader = counted.getReader();
    while (!(await reader.read()).done);
    return loaded;
  }
  const cache = await caches.open(CACHE_NAME);
  const headers = new Headers({ 'content-type': 'application/octet-stream', [SIZE]: String(size) });
  if (etag) headers.set(ETAG, etag);
  await cache.put(url, new Response(counted, { status: 200, headers }));
  if (loaded !== size) {
    await cache.delete(url);
    throw new Error(`${url}: download ended after ${loaded} of ${size} bytes`);
  }
  return loaded;
}

export async function deleteCachedFiles(urls?: string[]): Promise<number> {
  if (!hasCaches()) return 0;
  if (!urls) {
    const cache = await caches.open(CACHE_NAME);
    const n = (await cache.keys()).length;
    await caches.delete(CACHE_NAME);
    return n;
  }
  const cache = await caches.open(CACHE_NAME);
  let n = 0;
  for (const u of urls) if (await cache.delete(u)) n++;
  return n;
}

/** "bytes=a-b" / "bytes=a-" / "bytes=-n" against a size; null when absent or unsatisfiable. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m) return null;
  const [, a = '', b = ''] = m;
  let start: number;
  let end: number;
  if (a === '') {
    const n = Number(b);
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/**
 * fetch() that answers GETs of cached checkpoint files from Cache Storage (honouring Range with a
 * 206), and everything else from the network. The worker hands it to the model loader.
 */
export function createCachedFetch(inner: typeof fetch = globalThis.fetch.bind(globalThis), onHit?: (url: string) => void): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    if (req.method === 'GET' && hasCaches()) {
      const hit = await cachedFile(req.url);
      if (hit) {
        onHit?.(req.url);
        const buf = await hit.response.arrayBuffer();
        const range = parseRange(req.headers.get('range'), buf.byteLength);
        if (range) {
          return new Response(buf.slice(range.start, range.end + 1), {
            status: 206,
            headers: { 'content-range': `bytes ${range.start}-${range.end}/${buf.byteLength}`, 'content-length': String(range.end - range.start + 1), etag: hit.etag ?? '' },
          });
        }
        return new Response(buf, { status: 200, headers: { 'content-length': String(buf.byteLength), etag: hit.etag ?? '' } });
      }
    }
    return inner(req);
  };
}
