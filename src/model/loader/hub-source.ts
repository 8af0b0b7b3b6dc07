// Checkpoint files from a hub: {hubUrl}/{repoId}/resolve/{revision}/{subfolder}/{file}, fetched
// with a Bearer token, streamed for progress, cancellable with an AbortSignal.
import type { DownloadProgress, FileSource } from './file-source.ts';

export const DEFAULT_HUB_URL = 'https://huggingface.co';

export interface HubSourceOptions {
  repoId: string;
  hubUrl?: string;
  revision?: string;
  subfolder?: string;
  token?: string;
  fetch?: typeof fetch;
}

export class HubDownloadError extends Error {
  override name = 'HubDownloadError';
  constructor(
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;

export function fileUrl(o: HubSourceOptions, file: string): string {
  const base = (o.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, '');
  const parts = [o.repoId, 'resolve', encodeURIComponent(o.revision ?? 'main'), ...(o.subfolder ? o.subfolder.split('/').filter(Boolean) : []), file];
  return `${base}/${parts.join('/')}`;
}

async function readBody(res: Response, file: string, onProgress?: (p: DownloadProgress) => void): Promise<Uint8Array> {
  const header = res.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  if (!res.body) {
    const b = new Uint8Array(await res.arrayBuffer());
    onProgress?.({ file, loaded: b.length, total: total ?? b.length });
    return b;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let buf: Uint8Array | null = total !== null ? new Uint8Array(total) : null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (buf && loaded + value.length <= buf.length) buf.set(value, loaded);
    else {
      if (buf) chunks.push(buf.subarray(0, loaded));
      buf = null;
      chunks.push(value);
    }
    loaded += value.length;
    onProgress?.({ file, loaded, total });
  }
  if (buf) return loaded === buf.length ? buf : buf.subarray(0, loaded);
  const out = new Uint8Array(loaded);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

export function hubSource(o: HubSourceOptions): FileSource {
  if (!REPO_ID.test(o.repoId) || o.repoId.includes('..')) throw new Error(`"${o.repoId}" is not a repository id (owner/name)`);
  if (o.subfolder?.split('/').some((s) => s === '.' || s === '..')) throw new Error(`subfolder "${o.subfolder}" must not contain . or .. segments`);
  const doFetch = o.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    describe: (file) => fileUrl(o, file),
    async read(file, opts) {
      const url = fileUrl(o, file);
      let res: Response;
      try {
        res = await doFetch(url, { headers: o.token ? { authorization: `Bearer ${o.token}` } : {}, ...(opts?.signal ? { signal: opts.signal } : {}) });
      } catch (e) {
        if (opts?.signal?.aborted) throw e;
        const cause = (e as Error & { cause?: { message?: string } }).cause?.message;
        throw new HubDownloadError(`GET ${url} failed: ${(e as Error).message}${cause ? ` (${cause})` : ''}`, 0, { cause: e });
      }
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) {
        await res.body?.cancel();
        const hint = res.status === 401 || res.status === 403 ? ' (check the token)' : '';
        throw new HubDownloadError(`GET ${url} failed: HTTP ${res.status}${hint}`, res.status);
      }
      return readBody(res, file, opts?.onProgress);
    },
  };
}
