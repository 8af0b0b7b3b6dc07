// The cache policy of a load: a chunk comes from the weight cache when it holds the chunk, else the
// hub, stored into the cache as it arrives (hub-file-chunks.ts). When the cache refuses (quota,
// private mode), chunks come from the hub and are held in memory only, and every file of the load
// goes uncached from then on.
import { BrowserCacheError, ChunkSumError, storageOp, type WeightCache } from './weight-cache.ts';

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
