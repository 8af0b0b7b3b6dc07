// A hub file behind a fetch that honours Range (or ignores it, or changes its ETag on the way),
// recording each request's Range header: for the loader's unit tests.
export interface RangeHubOptions {
  ranges?: boolean;
  /** the ETag answered from the n-th request on */
  etagAfter?: { request: number; etag: string };
  /** requests for this Range header (e.g. 'bytes=100-199') are answered 403 */
  forbid?: string;
}

export function rangeHub(bytes: Uint8Array, opts: RangeHubOptions = {}) {
  const asked: string[] = [];
  const fetch = (async (_url: string, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('range');
    asked.push(range ?? 'none');
    const etag = opts.etagAfter && asked.length >= opts.etagAfter.request ? opts.etagAfter.etag : '"e"';
    if (range !== null && range === opts.forbid) return new Response('no', { status: 403 });
    const m = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    if (!m || opts.ranges === false)
      return new Response(bytes.slice(), { status: 200, headers: { 'content-length': String(bytes.length), etag } });
    const end = Math.min(bytes.length - 1, m[2] ? Number(m[2]) : bytes.length - 1);
    return new Response(bytes.slice(Number(m[1]), end + 1), {
      status: 206,
      headers: {
        'content-range': `bytes ${m[1]}-${end}/${bytes.length}`,
        'content-length': String(end + 1 - Number(m[1])),
        etag,
      },
    });
  }) as typeof globalThis.fetch;
  return { asked, repo: { repoId: 'a/b', hubUrl: 'http://h', fetch } };
}
