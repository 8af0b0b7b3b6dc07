// The checkpoint source of the preview's worker: the weight files chunked through the weight
// cache (hub-file-chunks.ts), opened for reads in parts (headers) and as Blobs (the session's
// external data); other files (config, shard index) read whole from the hub.
import type { FileSource } from '../io/file-source.ts';
import { blobFile } from '../io/checkpoint-file.ts';
import { hubSource, type HubRepo } from '../io/hub-files.ts';
import { ChunkedHubFile, SharedCache, type ChunkOptions } from './hub-file-chunks.ts';

export interface HubFileEntry {
  name: string;
  size: number;
  etag: string | null;
  /** the file's first bytes as an inspection read them (its safetensors header): reads within them ask no one */
  head?: Uint8Array;
}

/** a source that holds the cache's files open: finishing its download, letting go of them */
export interface HeldSource extends FileSource {
  /** the chunks a session did not read into the cache too; true when every weight file is cached */
  complete(): Promise<boolean>;
  /** closes what holds the cache's files (after a session has read its weights) */
  release(): Promise<void>;
}

export function chunkedHubSource(repo: HubRepo, weights: readonly HubFileEntry[], opts: ChunkOptions): HeldSource {
  const hub = hubSource(repo);
  // the first refusal sends every file uncached, said once
  const cache = new SharedCache(opts.cache, opts.onCacheError);
  const files = new Map(weights.map((w) => [w.name, new ChunkedHubFile(repo, w.name, w.size, w.etag, opts, cache)]));
  const heads = new Map(weights.map((w) => [w.name, w.head ?? new Uint8Array(0)]));
  return {
    describe: hub.describe,
    read: async (name, o) =>
      files.has(name) ? new Uint8Array(await new Response(files.get(name)!.stream()).arrayBuffer()) : hub.read(name, o),
    async open(name) {
      const f = files.get(name);
      if (!f) return null;
      const head = heads.get(name)!;
      const file = blobFile(f.blob());
      return {
        ...file,
        etag: f.etag,
        // the header the page inspected: a visit whose weights are all converted in the cache asks the hub nothing
        read: async (offset, length) =>
          offset + length <= head.length ? head.slice(offset, offset + length) : file.read(offset, length),
      };
    },
    /** without a cache (weights converted on their way into it) there is nothing to finish: false */
    async complete() {
      const done = await Promise.all([...files.values()].map((f) => f.download()));
      return done.every(Boolean);
    },
    async release() {
      await Promise.all([...files.values()].map((f) => f.release()));
    },
  };
}
