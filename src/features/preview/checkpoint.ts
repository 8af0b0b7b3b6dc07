import {
  BrowserCacheError,
  HubFileError,
  openCache,
  cachedFiles,
  type HubRepo,
  parseConfig,
  type ConsisIDConfig,
} from '../../model/index.ts';
import { blobFile } from '../../model/convert/chunked-hub-source.ts';
import { cachedVersions } from '../../model/cache/opfs-cache.ts';
import { ChunkedHubFile } from '../../model/cache/hub-file-chunks.ts';
import { hubFetch, hubFetchRequired, hubFileUrl, openHubFile } from '../../model/io/hub-files.ts';
import { readSafetensorsHead } from '../../model/io/checkpoint-file.ts';
import { storageOp } from '../../model/cache/weight-cache.ts';
import {
  WEIGHTS_INDEX_NAME,
  WEIGHTS_NAME,
  parseShardIndex,
  shardFiles,
} from '../../model/io/safetensors/index-file.ts';
import { collectWeights, type WeightSet } from '../../model/io/safetensors/weight-set.ts';
import { expectedParameters } from '../../model/graph/parameters.ts';
import { type SafetensorsHeader } from '../../model/io/safetensors/read.ts';
// What a checkpoint on the hub holds, read before loading: config.json, the shard index (if any)
// and each safetensors header (Range requests, or the start of the cached file); then the
// download into the browser cache, with progress and cancel. Fetching and caching are the
// model loader's (src/model/loader); this file decides what the page shows.

/** a checkpoint folder on the hub; serializable (it goes to the worker) */
export type CheckpointRef = Required<Pick<HubRepo, 'hubUrl' | 'repoId' | 'subfolder' | 'revision'>> & {
  token: string | null;
};

export interface WeightFile {
  name: string;
  header: SafetensorsHeader;
  /** the bytes the header was read from: the worker reads them from here instead of asking the hub again */
  head: Uint8Array;
  url: string;
  size: number;
  etag: string | null;
  tensors: number;
  params: number;
  dtypes: Record<string, number>;
  cached: boolean;
  /** bytes in the browser cache: all of them when cached, else the chunks a stopped download or a run stored */
  storedBytes: number;
}

export interface CheckpointInfo {
  ref: CheckpointRef;
  rawConfig: Record<string, unknown>;
  config: ConsisIDConfig;
  files: WeightFile[];
  /** every tensor as the headers describe it (no bytes) */
  weights: WeightSet;
  params: number;
  /** parameters per safetensors dtype */
  dtypes: Record<string, number>;
  /** bytes of the weight files */
  downloadBytes: number;
  /** where downloadBytes comes from: the files' headers, the shard index's total_size (a refused checkpoint's files are never asked for), or nowhere */
  downloadFrom: 'files' | 'index' | 'unknown';
  /** bytes still to download (not in the browser cache) */
  missingBytes: number;
  /** why the checkpoint is refused before its weights are touched (no header read); null when it fits */
  refused: string | null;
}

export interface HeaderSummary {
  tensors: number;
  params: number;
  dtypes: Record<string, number>;
}

export function summarizeHeader(header: SafetensorsHeader): HeaderSummary {
  const out: HeaderSummary = { tensors: 0, params: 0, dtypes: {} };
  for (const t of header.tensors.values()) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    out.tensors++;
    out.params += n;
    out.dtypes[t.dtype] = (out.dtypes[t.dtype] ?? 0) + n;
  }
  return out;
}

const cacheUnavailable = (e: unknown) => {
  if (e instanceof BrowserCacheError) return null;
  throw e;
};

/** bytes of the file version's chunks in the browser cache */
const storedBytesOf = async (url: string, etag: string | null, size: number) =>
  (await cachedFiles([{ url, etag, size }]))[0]!.bytes;

/** the weight file as its head describes it, with the version read and what the cache holds of it */
const describedFile = (
  name: string,
  url: string,
  read: { header: SafetensorsHeader; head: Uint8Array },
  version: { size: number; etag: string | null },
  stored: StoredState,
): WeightFile => ({
  name,
  ...read,
  url,
  // only these two: a cached version or a hub file carries functions, which a worker message cannot
  size: version.size,
  etag: version.etag,
  ...summarizeHeader(read.header),
  ...stored,
});

/** a cached version is used while the hub has its ETag, or cannot be asked */
const sameVersionAs =
  (etag: string | null | undefined) =>
  (v: { etag: string | null }): boolean =>
    !etag || !v.etag || v.etag === etag;

const uncached = async (url: string, v: { size: number; etag: string | null }): Promise<StoredState> => ({
  cached: false,
  storedBytes: await storedBytesOf(url, v.etag, v.size),
});

async function weightFile(ref: CheckpointRef, name: string, signal?: AbortSignal): Promise<WeightFile> {
  const url = hubFileUrl(ref, name);
  const versions = await cachedVersions(url);
  if (versions.length) {
    const head = await hubFetch(ref, name, { method: 'HEAD', signal }).catch((e: Error) => {
      if (e.name === 'AbortError') throw e;
      return null;
    });
    const hit = versions.find(sameVersionAs(head?.headers.get('etag')));
    // only the chunks holding the header are read; a cache that cannot be read leaves the header to the hub
    const read = hit
      ? await storageOp(async () => readSafetensorsHead(blobFile(await hit.blob()), name)).catch(cacheUnavailable)
      : null;
    if (hit && read) return describedFile(name, url, read, hit, { cached: true, storedBytes: hit.size });
  }
  const f = await openHubFile(ref, name, signal);
  if (!f) throw new HubFileError(name, url, 404, 'not found on the hub (HTTP 404); the shard index names it');
  return describedFile(name, url, await readSafetensorsHead(f, name), f, await uncached(url, f));
}

export const missingBytes = (files: readonly WeightFile[]) => files.reduce((a, f) => a + f.size - f.storedBytes, 0);

/** how much of one weight file the browser cache holds */
export type StoredState = Pick<WeightFile, 'cached' | 'storedBytes'>;

/**
 * the files' stored bytes counted again (after a download or a run stopped part way), without
 * asking the hub; a file `known` to be cached whole is not counted
 */
export async function recountStored(
  files: readonly WeightFile[],
  known: readonly StoredState[] = files,
): Promise<StoredState[]> {
  return Promise.all(
    files.map(async (f, i) => {
      const stored = known[i]?.cached ? f.size : await storedBytesOf(f.url, f.etag, f.size);
      return { cached: stored === f.size, storedBytes: stored };
    }),
  );
}

/** every file of the checkpoint stored (a download or a run finished) or none (the cache was cleared) */
export const allStored = (files: readonly WeightFile[], cached: boolean): StoredState[] =>
  files.map((f) => ({ cached, storedBytes: cached ? f.size : 0 }));

/** the inspection with the stored bytes counted since */
export function withStored(info: CheckpointInfo, stored: readonly StoredState[]): CheckpointInfo {
  if (stored.every((s, i) => s.storedBytes === info.files[i]!.storedBytes && s.cached === info.files[i]!.cached))
    return info;
  const files = info.files.map((f, i) => ({ ...f, ...stored[i] }));
  return { ...info, files, missingBytes: missingBytes(files) };
}

/** `refusal`: why the config cannot run here (its plan does not fit), checked before any weight file is asked for */
export async function inspectCheckpoint(
  ref: CheckpointRef,
  signal?: AbortSignal,
  refusal: (config: ConsisIDConfig) => Promise<string | null> = async () => null,
): Promise<CheckpointInfo> {
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(ref.repoId)) throw new Error('repo id must look like "owner/name"');
  let rawConfig: Record<string, unknown>;
  try {
    rawConfig = (await (await hubFetchRequired(ref, 'config.json', { signal })).json()) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof SyntaxError) throw new Error('config.json is not valid JSON', { cause: e });
    throw e;
  }
  const config = parseConfig(rawConfig, `${ref.repoId}/${ref.subfolder ? `${ref.subfolder}/` : ''}config.json`);
  const indexFile = await hubFetch(ref, WEIGHTS_INDEX_NAME, { signal });
  const index = indexFile ? parseShardIndex(await indexFile.text(), WEIGHTS_INDEX_NAME) : null;
  const names = index ? shardFiles(index) : [WEIGHTS_NAME];
  const refused = await refusal(config);
  signal?.throwIfAborted();
  if (refused) {
    const indexBytes = index?.metadata?.total_size;
    return {
      ref,
      rawConfig,
      config,
      files: [],
      weights: new Map(),
      params: [...expectedParameters(config).values()].reduce((a, s) => a + s.reduce((x, y) => x * y, 1), 0),
      dtypes: {},
      downloadBytes: indexBytes ?? 0,
      downloadFrom: indexBytes === undefined ? 'unknown' : 'index',
      missingBytes: indexBytes ?? 0,
      refused,
    };
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
  return {
    ref,
    rawConfig,
    config,
    files,
    weights: collectWeights(files),
    params: files.reduce((a, f) => a + f.params, 0),
    dtypes,
    downloadBytes: files.reduce((a, f) => a + f.size, 0),
    downloadFrom: 'files',
    missingBytes: missingBytes(files),
    refused: null,
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

export type DownloadResult = { cached: true } | { cached: false; reason: string };

/**
 * Downloads the weight files not in the cache straight into it, a chunk per Range request (never
 * a whole file in page memory). When the browser cache cannot store them (quota, entry size,
 * private mode) the download stops and says why: the worker then streams the weights from the
 * hub, uncached. Cancel with the signal.
 */
export async function downloadCheckpoint(
  info: CheckpointInfo,
  opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void } = {},
): Promise<DownloadResult> {
  const todo = info.files.filter((f) => !f.cached);
  const overallTotal = todo.reduce((a, f) => a + f.size, 0);
  let overallLoaded = 0;
  try {
    const chunks = { cache: await openCache(), signal: opts.signal };
    for (const f of todo) {
      let loaded = 0;
      // chunks an earlier, stopped download stored count as done
      const progress = (n: number) => {
        loaded += n;
        overallLoaded += n;
        opts.onProgress?.({ file: f.name, loaded, total: f.size, overallLoaded, overallTotal });
      };
      const file = new ChunkedHubFile(info.ref, f.name, f.size, f.etag, {
        ...chunks,
        onFetched: progress,
        onStored: progress,
        onCacheError: (e) => {
          throw e;
        },
      });
      if (!(await file.download())) throw new BrowserCacheError(`${f.name} was not stored`);
    }
  } catch (e) {
    opts.signal?.throwIfAborted();
    if (e instanceof BrowserCacheError) return { cached: false, reason: e.message };
    throw e;
  }
  return { cached: true };
}
