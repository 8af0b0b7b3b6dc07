// What a checkpoint on the hub holds, read before loading: config.json, the shard index (if any)
// and each safetensors header via HTTP Range; then the download (progress, cancel, cache).
import { parseConfig, type ConsisIDConfig } from '../../model/config.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME, parseShardIndex, shardFiles } from '../../model/safetensors/index-file.ts';
import { cachedFile, putCachedFile, putCachedStream } from './weight-cache.ts';

export interface CheckpointRef {
  hubUrl: string;
  token: string | null;
  repoId: string;
  subfolder: string;
  revision: string;
}

export interface WeightFile {
  name: string;
  url: string;
  size: number;
  etag: string | null;
  tensors: number;
  params: number;
  dtypes: Record<string, number>;
  cached: boolean;
}

export interface CheckpointInfo {
  ref: CheckpointRef;
  configUrl: string;
  indexUrl: string | null;
  rawConfig: Record<string, unknown>;
  config: ConsisIDConfig;
  files: WeightFile[];
  params: number;
  /** parameters per safetensors dtype */
  dtypes: Record<string, number>;
  /** bytes of the weight files */
  downloadBytes: number;
  /** bytes still to download (not in the browser cache) */
  missingBytes: number;
}

const DTYPE_BYTES: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };
const MAX_HEADER = 100 * 1024 * 1024;

export class CheckpointError extends Error {
  override name = 'CheckpointError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export function resolveUrl(ref: CheckpointRef, file: string): string {
  const base = ref.hubUrl.replace(/\/+$/, '');
  const sub = ref.subfolder.replace(/^\/+|\/+$/g, '');
  const repo = ref.repoId.split('/').map(encodeURIComponent).join('/');
  return `${base}/${repo}/resolve/${encodeURIComponent(ref.revision || 'main')}/${sub ? `${sub.split('/').map(encodeURIComponent).join('/')}/` : ''}${encodeURIComponent(file)}`;
}

function authHeaders(ref: CheckpointRef, extra: Record<string, string> = {}): Headers {
  const h = new Headers(extra);
  if (ref.token) h.set('authorization', `Bearer ${ref.token}`);
  return h;
}

async function hubFetch(ref: CheckpointRef, url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  let r: Response;
  try {
    r = await fetch(url, { ...init, headers: authHeaders(ref, init.headers) });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new CheckpointError(`could not reach the hub for ${fileOf(url)}: ${(e as Error).message}`);
  }
  return r;
}

const fileOf = (url: string) => decodeURIComponent(new URL(url).pathname.split('/resolve/')[1]?.split('/').slice(1).join('/') ?? url);

async function expectOk(r: Response, url: string): Promise<Response> {
  if (r.ok) return r;
  const what = fileOf(url);
  if (r.status === 401) throw new CheckpointError(`${what}: the hub wants a valid token (HTTP 401)`, 401);
  if (r.status === 403) throw new CheckpointError(`${what}: this token may not read the repository (HTTP 403)`, 403);
  if (r.status === 404) throw new CheckpointError(`${what}: not found on the hub (HTTP 404); check the repo id, subfolder and revision`, 404);
  throw new CheckpointError(`${what}: HTTP ${r.status}`, r.status);
}

interface HeaderSummary {
  tensors: number;
  params: number;
  dtypes: Record<string, number>;
}

export function summarizeHeader(json: string, file: string): HeaderSummary {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new CheckpointError(`${file}: the safetensors header is not valid JSON`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new CheckpointError(`${file}: the safetensors header is not a JSON object`);
  const out: HeaderSummary = { tensors: 0, params: 0, dtypes: {} };
  for (const [name, v] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const e = v as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof e?.dtype !== 'string' || !(e.dtype in DTYPE_BYTES) || !Array.isArray(e.shape) || !e.shape.every((d) => Number.isInteger(d) && d >= 0)) {
      throw new CheckpointError(`${file}: tensor "${name}" has an invalid header entry`);
    }
    const n = (e.shape as number[]).reduce((a, b) => a * b, 1);
    out.tensors++;
    out.params += n;
    out.dtypes[e.dtype] = (out.dtypes[e.dtype] ?? 0) + n;
  }
  return out;
}

function headerLength(bytes: Uint8Array, file: string): number {
  if (bytes.byteLength < 8) throw new CheckpointError(`${file}: shorter than the 8-byte safetensors header length`);
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(MAX_HEADER)) throw new CheckpointError(`${file}: header of ${n} bytes exceeds the ${MAX_HEADER}-byte limit`);
  return Number(n);
}

const totalFromContentRange = (h: string | null): number | null => {
  const m = h ? /\/(\d+)\s*$/.exec(h) : null;
  return m ? Number(m[1]) : null;
};

/** header of a remote safetensors file with two Range requests (8 bytes, then the JSON) */
async function remoteHeader(ref: CheckpointRef, url: string, signal?: AbortSignal): Promise<{ json: string; size: number; etag: string | null }> {
  const file = fileOf(url);
  const first = await expectOk(await hubFetch(ref, url, { headers: { range: 'bytes=0-7' }, signal }), url);
  const etag = first.headers.get('etag');
  if (first.status === 200) {
    // No Range support: the whole file came back.
    const all = new Uint8Array(await first.arrayBuffer());
    const n = headerLength(all, file);
    return { json: new TextDecoder().decode(all.subarray(8, 8 + n)), size: all.byteLength, etag };
  }
  const size = totalFromContentRange(first.headers.get('content-range'));
  const n = headerLength(new Uint8Array(await first.arrayBuffer()), file);
  if (size !== null && 8 + n > size) throw new CheckpointError(`${file}: header of ${n} bytes runs past the end of the ${size}-byte file`);
  const second = await expectOk(await hubFetch(ref, url, { headers: { range: `bytes=8-${8 + n - 1}` }, signal }), url);
  const bytes = new Uint8Array(await second.arrayBuffer());
  return { json: new TextDecoder().decode(bytes.subarray(0, n)), size: size ?? totalFromContentRange(second.headers.get('content-range')) ?? 0, etag };
}

/** ETag of a file on the hub (HEAD), or null when the hub does not say. */
async function remoteEtag(ref: CheckpointRef, url: string, signal?: AbortSignal): Promise<{ etag: string | null; ok: boolean }> {
  try {
    const r = await hubFetch(ref, url, { method: 'HEAD', signal });
    return { etag: r.ok ? r.headers.get('etag') : null, ok: r.ok };
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    return { etag: null, ok: false };
  }
}

async function weightFile(ref: CheckpointRef, name: string, signal?: AbortSignal): Promise<WeightFile> {
  const url = resolveUrl(ref, name);
  const hit = await cachedFile(url);
  if (hit) {
    const head = await remoteEtag(ref, url, signal);
    // A cached file is used when the hub still has the same ETag, or cannot be asked.
    if (!head.ok || !head.etag || !hit.etag || head.etag === hit.etag) {
      const bytes = new Uint8Array(await hit.response.arrayBuffer());
      const n = headerLength(bytes, name);
      const s = summarizeHeader(new TextDecoder().decode(bytes.subarray(8, 8 + n)), name);
      return { name, url, size: bytes.byteLength, etag: hit.etag, ...s, cached: true };
    }
  }
  const h = await remoteHeader(ref, url, signal);
  return { name, url, size: h.size, etag: h.etag, ...summarizeHeader(h.json, name), cached: false };
}

export async function inspectCheckpoint(ref: CheckpointRef, signal?: AbortSignal): Promise<CheckpointInfo> {
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(ref.repoId)) throw new CheckpointError('repo id must look like "owner/name"');
  const configUrl = resolveUrl(ref, 'config.json');
  const cr = await expectOk(await hubFetch(ref, configUrl, { signal }), configUrl);
  let rawConfig: Record<string, unknown>;
  try {
    rawConfig = (await cr.json()) as Record<string, unknown>;
  } catch {
    throw new CheckpointError('config.json is not valid JSON');
  }
  const config = parseConfig(rawConfig, `${ref.repoId}/${ref.subfolder ? `${ref.subfolder}/` : ''}config.json`);
  const idxUrl = resolveUrl(ref, WEIGHTS_INDEX_NAME);
  const ir = await hubFetch(ref, idxUrl, { signal });
  let names: string[];
  let indexUrl: string | null = null;
  if (ir.status === 404) {
    names = [WEIGHTS_NAME];
  } else {
    await expectOk(ir, idxUrl);
    names = shardFiles(parseShardIndex(await ir.text(), WEIGHTS_INDEX_NAME));
    indexUrl = idxUrl;
  }
  // headers of up to 4 shards at a time
  const files: WeightFile[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < names.length; i = next++) files[i] = await weightFile(ref, names[i]!, signal);
  };
  await Promise.all(Array.from({ length: Math.min(4, names.length) }, worker));
  const dtypes: Record<string, number> = {};
  for (const f of files) for (const [d, n] of Object.entries(f.dtypes)) dtypes[d] = (dtypes[d] ?? 0) + n;
  const downloadBytes = files.reduce((a, f) => a + f.size, 0);
  return {
    ref,
    configUrl,
    indexUrl,
    rawConfig,
    config,
    files,
    params: files.reduce((a, f) => a + f.params, 0),
    dtypes,
    downloadBytes,
    missingBytes: files.filter((f) => !f.cached).reduce((a, f) => a + f.size, 0),
  };
}

export interface DownloadProgress {
  file: string;
  loaded: number;
  total: number;
  /** over all files still to download */
  overallLoaded: number;
  overallTotal: number;
}

/**
 * Downloads the weight files not in the cache and stores them; config.json and the shard index
 * are fetched again (small) so the model loader reads what was inspected. Cancel with the signal.
 */
export async function downloadCheckpoint(info: CheckpointInfo, opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void } = {}): Promise<{ downloaded: number }> {
  const { ref } = info;
  const small = [info.configUrl, ...(info.indexUrl ? [info.indexUrl] : [])];
  for (const url of small) {
    const r = await expectOk(await hubFetch(ref, url, { signal: opts.signal }), url);
    await putCachedFile(url, new Uint8Array(await r.arrayBuffer()), r.headers.get('etag'));
  }
  const todo = info.files.filter((f) => !f.cached);
  const overallTotal = todo.reduce((a, f) => a + f.size, 0);
  let overallLoaded = 0;
  let downloaded = 0;
  for (const f of todo) {
    const r = await expectOk(await hubFetch(ref, f.url, { signal: opts.signal }), f.url);
    const total = Number(r.headers.get('content-length') ?? f.size) || f.size;
    let loaded = 0;
    // streamed straight into Cache Storage: a multi-gigabyte checkpoint is never held in page memory
    const progress = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        loaded += chunk.byteLength;
        overallLoaded += chunk.byteLength;
        opts.onProgress?.({ file: f.name, loaded, total, overallLoaded, overallTotal });
        ctl.enqueue(chunk);
      },
    });
    try {
      await putCachedStream(f.url, r.body!.pipeThrough(progress), total, r.headers.get('etag') ?? f.etag);
    } catch (e) {
      opts.signal?.throwIfAborted();
      throw new CheckpointError(`${f.name}: ${(e as Error).message.replace(`${f.url}: `, '')}`);
    }
    f.cached = true;
    downloaded += loaded;
  }
  return { downloaded };
}
