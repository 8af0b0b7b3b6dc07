// The checkpoint source of the preview's worker: the weight files chunked through the weight
// cache (hub-file-chunks.ts), opened for reads in parts (headers) and as Blobs (the session's
// external data); other files (config, shard index) read whole from the hub. For a precision other
// than float32 the model takes the files converted instead (convert/weight-converter.ts).
import { SharedCache } from '../cache/cache-policy.ts';
import type { FileSource, RandomAccessFile } from '../io/file-source.ts';
import { ChunkedHubFile, type ChunkOptions } from '../cache/hub-file-chunks.ts';
import { hubSource, type HubRepo } from '../io/hub-files.ts';
import { weightConverter, type WeightConverter } from './weight-converter.ts';

export interface HubFileEntry {
  name: string;
  size: number;
  etag: string | null;
  /** the file's first bytes as an inspection read them (its safetensors header): reads within them ask no one */
  head?: Uint8Array;
}

/** a Blob read in parts (safetensors headers) and handed whole to a session */
export const blobFile = (blob: Blob): RandomAccessFile => ({
  size: blob.size,
  read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  blob: () => blob,
});

export function chunkedHubSource(
  repo: HubRepo,
  weights: readonly HubFileEntry[],
  opts: ChunkOptions & {
    /** the most converted bytes held in memory when the cache cannot store them (default SEGMENT_HEAP_BUDGET) */
    memoryBudget?: number;
  },
): FileSource & { converter: WeightConverter; complete(): Promise<boolean>; release(): Promise<void> } {
  const hub = hubSource(repo);
  // the first refusal sends every file uncached, said once
  const cache = new SharedCache(opts.cache, opts.onCacheError);
  const files = new Map(weights.map((w) => [w.name, new ChunkedHubFile(repo, w.name, w.size, w.etag, opts, cache)]));
  const heads = new Map(weights.map((w) => [w.name, w.head ?? new Uint8Array(0)]));
  const file = (name: string) => {
    const f = files.get(name);
    if (!f) throw new Error(`${hub.describe(name)} is not a weight file of this checkpoint`);
    return f;
  };
  // converted weights are cached instead of the file's chunks: the file streams through uncached
  const converter = weightConverter(
    {
      identity: (name) => file(name),
      stream: (name) => {
        const f = file(name);
        return new ChunkedHubFile(repo, name, f.size, f.etag, { ...opts, cache: null }).stream();
      },
    },
    {
      cache: opts.cache,
      onCacheError: opts.onCacheError,
      chunkBytes: opts.chunkBytes,
      memoryBudget: opts.memoryBudget,
    },
  );
  /** a session took a file's chunks (float32), not only converted weights */
  let chunksRead = false;
  return {
    describe: hub.describe,
    converter,
    read: async (name, o) =>
      files.has(name) ? new Uint8Array(await new Response(files.get(name)!.stream()).arrayBuffer()) : hub.read(name, o),
    async open(name) {
      const f = files.get(name);
      if (!f) return null;
      const head = heads.get(name)!;
      return {
        size: f.size,
        // the header the page inspected: a visit whose weights are all converted in the cache asks the hub nothing
        read: async (offset, length) =>
          offset + length <= head.length ? head.slice(offset, offset + length) : f.read(offset, length),
        blob: () => {
          chunksRead = true;
          return f.blob();
        },
      };
    },
    /**
     * The chunks a session did not read (tensors the graph does not use) into the cache too: true
     * when every file is cached. Runs on converted weights only leave the files' chunks alone
     * (false): the files would be downloaded a second time for nothing.
     */
    async complete() {
      if (!chunksRead) return false;
      const done = await Promise.all([...files.values()].map((f) => f.download()));
      return done.every(Boolean);
    },
    /** closes what holds the cache's files (after a session has read its weights) */
    async release() {
      await Promise.all([...files.values()].map((f) => f.release()));
      await converter.release();
    },
  };
}
