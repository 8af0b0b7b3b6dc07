// Where converted files go when the browser cache cannot store them (quota, private mode, no
// OPFS): memory, within a budget. Files the cache already holds whole are still read from it; the
// rest are held in memory only while their bytes stay within the budget, and a conversion that
// would pass it is refused before its bytes are downloaded (never an out-of-memory crash after
// gigabytes).
import { memoryCache } from '../cache/memory-cache.ts';
import {
  BrowserCacheError,
  storageOp,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from '../cache/weight-cache.ts';
import type { ConverterMemory } from './stream-convert.ts';

/** converted weights that neither the browser cache can store nor the memory budget can hold */
export class ConvertedMemoryError extends Error {
  override name = 'ConvertedMemoryError';
}

export class MemoryFallback implements WeightCache {
  private readonly memory = memoryCache();

  constructor(
    /** the cache that refused to store: what it holds whole is still read; null where there is none */
    private readonly stored: WeightCache | null,
    readonly budget: number,
    /** the error for `need` bytes that would be held in memory, over the budget */
    private readonly refuse: (need: number) => ConvertedMemoryError,
    /** the bytes held now, and the most held */
    readonly held: ConverterMemory = { held: 0, peak: 0 },
  ) {}

  /** refused at once when `need` bytes would not fit the budget beside what is held already */
  reserve(need: number): void {
    if (this.held.held + need > this.budget) throw this.refuse(this.held.held + need);
  }

  async match(v: FileVersion): Promise<StoredFile | null> {
    const stored = await this.fromStored((c) => c.match(v));
    return stored?.complete ? stored : this.memory.match(v);
  }

  async put(v: FileVersion): Promise<StoredFile> {
    this.reserve(v.size);
    this.held.held += v.size;
    this.held.peak = Math.max(this.held.peak, this.held.held);
    return this.memory.put(v);
  }

  async delete(v: FileVersion): Promise<void> {
    await this.memory.delete(v);
    await this.fromStored((c) => c.delete(v));
  }

  /** an operation on the refusing cache; a storage failure answers null */
  private async fromStored<T>(op: (c: WeightCache) => Promise<T>): Promise<T | null> {
    const c = this.stored;
    if (!c) return null;
    return storageOp(() => op(c)).catch((e: unknown) => {
      if (e instanceof BrowserCacheError) return null;
      throw e;
    });
  }
}
