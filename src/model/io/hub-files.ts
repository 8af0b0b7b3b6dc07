// Checkpoint files on a hub: {hubUrl}/{repoId}/resolve/{revision}/{subfolder}/{file}, fetched with
// a Bearer token, whole (streamed, with progress) or by Range; one error type names file and URL.
// The one place that fetches hub files: the Node loader, the preview's inspector and its worker.
import type { DownloadProgress, FileSource, RandomAccessFile } from './file-source.ts';

export const DEFAULT_HUB_URL = 'https://huggingface.co';

export interface HubRepo {
  repoId: string;
  hubUrl?: string;
  revision?: string;
  subfolder?: string;
  token?: string | null;
  fetch?: typeof fetch;
}

export class HubFileError extends Error {
  override name = 'HubFileError';
  constructor(
    readonly file: string,
    readonly url: string,
    /** the HTTP status; 0 when the hub could not be reached */
    readonly status: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${detail} (GET ${url} failed)`, options);
  }
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;

/** throws on a repo id or subfolder that could leave the repository's URL space */
export function checkHubRepo(repo: HubRepo): void {
  if (!REPO_ID.test(repo.repoId) || repo.repoId.includes('..'))
    throw new Error(`"${repo.repoId}" is not a repository id (owner/name)`);
  if (repo.subfolder?.split('/').some((s) => s === '.' || s === '..'))
    throw new Error(`subfolder "${repo.subfolder}" must not contain . or .. segments`);
}

const segments = (path: string | undefined): string[] => (path ?? '').split('/').filter(Boolean);

/**
 * The resolve URL, each path segment percent-encoded and the revision encoded whole (so
 * "refs/pr/1" stays one segment), as huggingface_hub's hf_hub_url does: quote(revision, safe="")
 * and quote(filename) with "/" kept (file_download.py).
 */
export function hubFileUrl(repo: HubRepo, file: string): string {
  const base = (repo.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, '');
  const path = [
    ...segments(repo.repoId),
    'resolve',
    repo.revision || 'main',
    ...segments(repo.subfolder),
    ...segments(file),
  ];
  return `${base}/${path.map(encodeURIComponent).join('/')}`;
}

function statusDetail(status: number): string {
  if (status === 401) return 'HTTP 401 (check the token): the hub wants a valid token';
  if (status === 403) return 'HTTP 403 (check the token): this token may not read the repository';
  if (status === 404) return 'not found on the hub (HTTP 404); check the repo id, subfolder and revision';
  if (status === 416) return 'HTTP 416: the byte range lies outside the file';
  return `HTTP ${status} from the hub`;
}

export interface HubFetchOptions {
  method?: 'GET' | 'HEAD';
  /** inclusive byte range; `end` omitted reads to the end of the file */
  range?: { start: number; end?: number };
  signal?: AbortSignal;
  /** the browser's HTTP cache mode (fetch's `cache`) */
  cache?: RequestCache;
}

/** The response for a hub file; null when the hub says 404. Network and HTTP errors throw HubFileError; an abort throws the AbortError. */
export async function hubFetch(repo: HubRepo, file: string, opts: HubFetchOptions = {}): Promise<Response | null> {
  const url = hubFileUrl(repo, file);
  const headers = new Headers(opts.range ? { range: `bytes=${opts.range.start}-${opts.range.end ?? ''}` } : {});
  if (repo.token) headers.set('authorization', `Bearer ${repo.token}`);
  let res: Response;
  try {
    res = await (repo.fetch ?? globalThis.fetch)(url, {
      method: opts.method ?? 'GET',
      headers,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.cache ? { cache: opts.cache } : {}),
    });
  } catch (e) {
    if (opts.signal?.aborted || (e as Error).name === 'AbortError') throw e;
    const cause = (e as Error & { cause?: { message?: string } }).cause?.message;
    throw new HubFileError(
      file,
      url,
      0,
      `the hub could not be reached (${(e as Error).message}${cause ? `: ${cause}` : ''})`,
      { cause: e },
    );
  }
  if (res.ok) return res;
  await res.body?.cancel();
  if (res.status === 404) return null;
  throw new HubFileError(file, url, res.status, statusDetail(res.status));
}

/** like hubFetch, but a missing file is an error too */
export async function hubFetchRequired(repo: HubRepo, file: string, opts: HubFetchOptions = {}): Promise<Response> {
  const res = await hubFetch(repo, file, opts);
  if (!res) throw new HubFileError(file, hubFileUrl(repo, file), 404, statusDetail(404));
  return res;
}

/** the first `n` bytes of a body (fewer when it ends first); the rest is not read */
export async function readPrefix(body: ReadableStream<Uint8Array> | null, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let got = 0;
  if (!body) return out.subarray(0, 0);
  const reader = body.getReader();
  try {
    while (got < n) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.byteLength, n - got);
      out.set(value.subarray(0, take), got);
      got += take;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return out.subarray(0, got);
}

/** the file size from Content-Range ("bytes a-b/size"), else Content-Length of a full answer */
function fileSize(res: Response): number | null {
  const m = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
  if (m) return Number(m[1]);
  const len = res.headers.get('content-length');
  return res.status === 200 && len && /^\d+$/.test(len) ? Number(len) : null;
}

const PROBE_BYTES = 256 * 1024;

/**
 * A hub file for reads in parts, by Range request: the first request learns the size and keeps the
 * first 256 KiB, which hold the safetensors header of most checkpoints. Null when the hub says 404.
 */
export async function openHubFile(
  repo: HubRepo,
  file: string,
  signal?: AbortSignal,
): Promise<(RandomAccessFile & { etag: string | null }) | null> {
  const url = hubFileUrl(repo, file);
  const res = await hubFetch(repo, file, { range: { start: 0, end: PROBE_BYTES - 1 }, signal });
  if (!res) return null;
  const size = fileSize(res);
  if (size === null) {
    await res.body?.cancel();
    throw new HubFileError(
      file,
      url,
      res.status,
      'the hub did not say the file size (no Content-Range or Content-Length)',
    );
  }
  // a hub without Range support answers 200 with the whole file: only the prefix is read
  const head = await readPrefix(res.body, Math.min(size, PROBE_BYTES));
  return {
    size,
    etag: res.headers.get('etag'),
    async read(offset, length, opts) {
      if (offset + length <= head.length) return head.subarray(offset, offset + length);
      const r = await hubFetchRequired(repo, file, {
        range: { start: offset, end: offset + length - 1 },
        signal: opts?.signal ?? signal,
      });
      const bytes =
        r.status === 206
          ? await readPrefix(r.body, length)
          : (await readPrefix(r.body, offset + length)).subarray(offset);
      if (bytes.length !== length)
        throw new HubFileError(file, url, r.status, `expected ${length} bytes at ${offset}, got ${bytes.length}`);
      return bytes;
    },
  };
}

/** the whole body, each piece said through `onProgress` as it arrives */
async function readBody(res: Response, file: string, onProgress?: (p: DownloadProgress) => void): Promise<Uint8Array> {
  const header = res.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  let loaded = 0;
  const counted = res.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(piece, out) {
        onProgress?.({ file, loaded: (loaded += piece.length), total });
        out.enqueue(piece);
      },
    }),
  );
  const bytes = new Uint8Array(await (counted ? new Response(counted) : res).arrayBuffer());
  if (!counted) onProgress?.({ file, loaded: bytes.length, total: total ?? bytes.length });
  return bytes;
}

/** A FileSource over hub files: whole files, streamed with progress, cancellable. */
export function hubSource(repo: HubRepo): FileSource {
  checkHubRepo(repo);
  return {
    describe: (file) => hubFileUrl(repo, file),
    async read(file, opts) {
      const res = await hubFetch(repo, file, { signal: opts?.signal });
      return res ? readBody(res, file, opts?.onProgress) : null;
    },
  };
}
