// What a checkpoint on the hub holds, read before anything loads: config.json, the shard index (if
// any) and each safetensors header (Range requests, or the start of the cached file), with what the
// browser cache stores of each file and the inputs a run of it starts with; and the VAE beside it.
import type { ConsisIDConfig } from '../graph/config.ts';
import { parseConfig } from '../graph/config.ts';
import { expectedParameters } from '../graph/parameters.ts';
import { hubFetch, hubFetchRequired, hubFileUrl, HubFileError, openHubFile } from '../io/hub-files.ts';
import { blobFile, readSafetensorsHead } from '../io/checkpoint-file.ts';
import { cachedVersions } from '../cache/opfs-cache.ts';
import { cachedFiles } from '../convert/cached-checkpoint.ts';
import { BrowserCacheError, storageOp } from '../cache/weight-cache.ts';
import { parseShardIndex, shardFiles, WEIGHTS_INDEX_NAME, WEIGHTS_NAME } from '../io/safetensors/index-file.ts';
import type { SafetensorsHeader } from '../io/safetensors/read.ts';
import { collectWeights } from '../io/safetensors/weight-set.ts';
import { parseVaeConfig } from '../models/vae/config.ts';
import {
  missingBytes,
  type CheckpointInfo,
  type CheckpointRef,
  type InspectedFile,
  type VaeFolderInfo,
} from './checkpoint-info.ts';
import { defaultSpec, inputLimits } from '../graph/input-spec.ts';

/** bytes of the file version's chunks in the browser cache */
const storedBytesOf = async (url: string, etag: string | null, size: number) =>
  (await cachedFiles([{ url, etag, size }]))[0]!.bytes;

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

/** the weight file as its head describes it, with the version read and what the cache holds of it */
const describedFile = (
  name: string,
  url: string,
  read: { header: SafetensorsHeader; head: Uint8Array },
  version: { size: number; etag: string | null },
  stored: Pick<InspectedFile, 'cached' | 'storedBytes'>,
): InspectedFile => ({
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

const uncached = async (
  url: string,
  v: { size: number; etag: string | null },
): Promise<Pick<InspectedFile, 'cached' | 'storedBytes'>> => ({
  cached: false,
  storedBytes: await storedBytesOf(url, v.etag, v.size),
});

async function weightFile(ref: CheckpointRef, name: string, signal?: AbortSignal): Promise<InspectedFile> {
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

/** the VAE's folder: `vae` beside the transformer's subfolder (for the repository's root: its vae/) */
export const vaeSubfolder = (transformer: string): string =>
  transformer.includes('/') ? transformer.replace(/[^/]+$/, 'vae') : 'vae';

/** the VAE's config checked and its headers read; or why it cannot decode: no vae/, a config it cannot read */
async function inspectVae(
  transformer: CheckpointRef,
  outChannels: number,
  signal?: AbortSignal,
): Promise<VaeFolderInfo> {
  const ref = { ...transformer, subfolder: vaeSubfolder(transformer.subfolder) };
  const config = `${ref.repoId}/${ref.subfolder}/config.json`;
  try {
    const res = await hubFetch(ref, 'config.json', { signal });
    if (!res) return { error: `${config} is not on the hub (HTTP 404): this checkpoint has no VAE to decode with` };
    const rawConfig = (await res.json().catch(() => {
      throw new Error(`${config} is not valid JSON`);
    })) as Record<string, unknown>;
    const { latent_channels } = parseVaeConfig(rawConfig, config);
    if (latent_channels !== outChannels)
      throw new Error(`${config}: latent_channels ${latent_channels}, the transformer's out_channels ${outChannels}`);
    const indexFile = await hubFetch(ref, WEIGHTS_INDEX_NAME, { signal });
    const names = indexFile ? shardFiles(parseShardIndex(await indexFile.text(), WEIGHTS_INDEX_NAME)) : [WEIGHTS_NAME];
    const files = await Promise.all(names.map((n) => weightFile(ref, n, signal)));
    return { ref, rawConfig, files, bytes: files.reduce((a, f) => a + f.size, 0) };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { error: (e as Error).message };
  }
}

/** `refusal`: why the config cannot run here (its plan does not fit), checked before any weight file is asked for */
export async function inspectCheckpoint(
  ref: CheckpointRef,
  signal?: AbortSignal,
  refusal: (config: ConsisIDConfig) => string | null = () => null,
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
  const inputs = { limits: inputLimits(config), spec: defaultSpec(config) };
  const indexFile = await hubFetch(ref, WEIGHTS_INDEX_NAME, { signal });
  const index = indexFile ? parseShardIndex(await indexFile.text(), WEIGHTS_INDEX_NAME) : null;
  const names = index ? shardFiles(index) : [WEIGHTS_NAME];
  const refused = refusal(config);
  signal?.throwIfAborted();
  if (refused) {
    const indexBytes = index?.metadata?.total_size;
    return {
      ref,
      rawConfig,
      config,
      ...inputs,
      files: [],
      weights: new Map(),
      params: [...expectedParameters(config).values()].reduce((a, s) => a + s.reduce((x, y) => x * y, 1), 0),
      dtypes: {},
      downloadBytes: indexBytes ?? 0,
      downloadFrom: indexBytes === undefined ? 'unknown' : 'index',
      missingBytes: indexBytes ?? 0,
      refused,
      vae: { error: 'the checkpoint was refused: its VAE was not inspected' },
    };
  }
  // headers of up to 4 shards at a time
  const files: InspectedFile[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < names.length; i = next++) files[i] = await weightFile(ref, names[i]!, signal);
  };
  const vae = inspectVae(ref, config.out_channels, signal);
  await Promise.all(Array.from({ length: Math.min(4, names.length) }, worker));
  const dtypes: Record<string, number> = {};
  for (const f of files) for (const [d, n] of Object.entries(f.dtypes)) dtypes[d] = (dtypes[d] ?? 0) + n;
  return {
    ref,
    rawConfig,
    config,
    ...inputs,
    files,
    weights: collectWeights(files),
    params: files.reduce((a, f) => a + f.params, 0),
    dtypes,
    downloadBytes: files.reduce((a, f) => a + f.size, 0),
    downloadFrom: 'files',
    missingBytes: missingBytes(files),
    refused: null,
    vae: await vae,
  };
}
