// Where a chunk of a hub file comes from: the weight cache when it holds the chunk, else the hub,
// stored into the cache as it arrives. When the cache refuses (quota, private mode), or a stored
// chunk cannot be read back (removed, cut short), chunks come from the hub and are held in memory
// only, and every file of the load goes uncached from then on.
import { HubFileError } from '../io/hub-files.ts';
import { requestChunk, type ChunkedFileRef } from './hub-chunk-request.ts';
import {
  BrowserCacheError,
  ChunkSumError,
  chunkBounds,
  chunkCount,
  storageOp,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from './weight-cache.ts';

/** a chunk of a file, ready to read */
export interface Chunk {
  /** bytes [from, to) of the chunk */
  read(from: number, to: number): Promise<Uint8Array>;
  /** in the weight cache; otherwise in memory, to be dropped once read */
  cached: boolean;
}

/** the cache of one load, shared by its files: the first refusal (said once) sends them all uncached */
export class SharedCache {
  constructor(
    private cache: WeightCache | null,
    private readonly onCacheError?: (e: BrowserCacheError) => void,
  ) {}

  /** the cache while it has not refused; null without one */
  get current(): WeightCache | null {
    return this.cache;
  }

  /**
   * A cache operation; when the storage fails, the cache is refused (said once) and `instead`
   * answers. A chunk that failed its checksum is gone from a storage that works: only `instead`.
   */
  async attempt<T, U>(op: () => Promise<T>, instead: () => U | Promise<U>, signal?: AbortSignal): Promise<T | U> {
    try {
      return await storageOp(op, signal);
    } catch (e) {
      if (e instanceof ChunkSumError) return instead();
      if (!(e instanceof BrowserCacheError)) throw e;
      const had = this.cache;
      this.cache = null;
      if (had) this.onCacheError?.(e);
      return instead();
    }
  }
}

export interface ChunkEvents {
  /** bytes that arrived from the hub (a chunk at a time) */
  onFetched?(bytes: number): void;
  /** bytes of a chunk found stored already (an earlier download stopped part way) */
  onStored?(bytes: number): void;
}

/** the chunks of one file version, each from the cache or the hub */
export class ChunkCachePolicy {
  /** this file in the cache (opened once; kept after a refusal, for `release`); null when there is no cache or it refused */
  private stored: Promise<StoredFile | null> | null = null;

  constructor(
    private readonly file: ChunkedFileRef,
    private readonly version: FileVersion,
    private readonly cache: SharedCache,
    private readonly events: ChunkEvents,
    /** chunk `i` loaded again, in place of the stored chunk `stale` that could not be read */
    private readonly reload: (i: number, stale: Chunk) => Promise<Chunk>,
  ) {}

  private store(): Promise<StoredFile | null> {
    const cache = this.cache.current;
    if (!cache) return Promise.resolve(null);
    this.stored ??= this.cache.attempt(
      async () => (await cache.match(this.version)) ?? cache.put(this.version),
      () => null,
      this.file.signal,
    );
    return this.stored;
  }

  /** chunk `i`: stored, fetched into the cache, or (no cache) fetched into memory */
  async load(i: number): Promise<Chunk> {
    const store = await this.store();
    const [start, end] = this.bounds(i);
    if (store && (await this.holds(store, i))) {
      this.events.onStored?.(end - start);
      return this.storedChunk(store, i);
    }
    const whole = chunkCount(this.version.size, this.version.chunkBytes) === 1;
    const res = await requestChunk(this.file, start, end, whole);
    if (store && this.cache.current) return this.fetchedIntoCache(store, i, res);
    const blob = await res.blob();
    this.events.onFetched?.(end - start);
    return { read: async (from, to) => new Uint8Array(await blob.slice(from, to).arrayBuffer()), cached: false };
  }

  private bounds(i: number): [number, number] {
    return chunkBounds(this.version.size, this.version.chunkBytes, i);
  }

  /** the cache (still in use) holds chunk `i`; a cache that cannot say is refused */
  private async holds(store: StoredFile, i: number): Promise<boolean> {
    return (
      !!this.cache.current &&
      this.attempt(
        () => store.has(i),
        () => false,
      )
    );
  }

  /** the hub's answer for chunk `i` written into the cache as it arrives; refused, the chunk comes again uncached */
  private async fetchedIntoCache(store: StoredFile, i: number, res: Response): Promise<Chunk> {
    const [start, end] = this.bounds(i);
    const written = await this.attempt(
      () => store.write(i, res.body!),
      () => null,
    );
    // the body went to the refused write: this chunk, and the rest, come again uncached
    if (written === null) return this.load(i);
    if (written !== end - start)
      throw new HubFileError(
        this.file.name,
        this.version.url,
        206,
        `the download of bytes ${start}-${end - 1} ended after ${written} bytes`,
      );
    this.events.onFetched?.(end - start);
    return this.storedChunk(store, i);
  }

  private attempt<T, U>(op: () => Promise<T>, instead: () => U | Promise<U>): Promise<T | U> {
    return this.cache.attempt(op, instead, this.file.signal);
  }

  /** a chunk in the cache; with the last one there, the file is marked complete */
  private async storedChunk(store: StoredFile, i: number): Promise<Chunk> {
    // a mark the storage refuses refuses the cache, as any write does
    if (store.allPresent && !store.complete)
      await this.attempt(
        () => store.markComplete(),
        () => undefined,
      );
    // a stored chunk that cannot be read back (removed by another tab, cut short) comes from the hub;
    // one that failed its checksum was removed, and comes from the hub into the cache again
    const chunk: Chunk = {
      read: (from, to) =>
        this.attempt(
          () => store.read(i, from, to),
          async () => (await this.reload(i, chunk)).read(from, to),
        ),
      cached: true,
    };
    return chunk;
  }

  /** every chunk is in the cache, and the file marked so */
  async complete(): Promise<boolean> {
    return (await this.store())?.complete ?? false;
  }

  /** lets go of the cache's files (a worker's open sync handles keep them from being removed) */
  async release(): Promise<void> {
    await (await this.stored?.catch(() => null))?.release();
  }
}
