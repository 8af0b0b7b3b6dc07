// A hub file behind a fetch that honours Range (or ignores it, or changes its ETag on the way),
// recording each request's Range header: for the loader's unit tests.
export interface RangeHubOptions {
  ranges?: boolean;
  /** the ETag answered from the n-th request on */
  etagAfter?: { request: number; etag: string };
}

export function rangeHub(bytes: Uint8Array, opts: RangeHubOptions = {}) {
  const asked: string[] = [];
  const fetch = (async (_url: string, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('range');
    asked.push(range ?? 'none');
    const etag = opts.etagAfter && asked.length >= opts.etagAfter.request ? opts.etagAfter.etag : '"e"';
    const m = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    if (!m || opts.ranges === false) return new Response(bytes.slice(), { status: 200, headers: { 'content-length': String(bytes.length), etag } });
    const end = Math.min(bytes.length - 1, m[2] ? Number(m[2]) : bytes.length - 1);
    return new Response(bytes.slice(Number(m[1]), end + 1), { status: 206, headers: { 'content-range': `bytes ${m[1]}-${end}/${bytes.length}`, 'content-length': String(end + 1 - Number(m[1])), etag } });
  }) as typeof globalThis.fetch;
  return { asked, repo: { repoId: 'a/b', hubUrl: 'http://h', fetch } };
}

/** Cache Storage in memory (Node has none); `refuse` makes every put fail as a full quota would */
export function memoryCache(opts: { refuse?: boolean } = {}) {
  const entries = new Map<string, { blob: Blob; headers: Headers }>();
  const cache = {
    async match(key: RequestInfo | URL) {
      const e = entries.get(String(key));
      return e && new Response(e.blob, { headers: e.headers });
    },
    async put(key: RequestInfo | URL, res: Response) {
      if (opts.refuse) {
        await res.body?.cancel();
        throw new DOMException('Quota exceeded.', 'QuotaExceededError');
      }
      entries.set(String(key), { blob: await res.blob(), headers: res.headers });
    },
    async delete(key: RequestInfo | URL) {
      return entries.delete(String(key));
    },
  };
  return { cache: cache as unknown as Cache, entries };
}
