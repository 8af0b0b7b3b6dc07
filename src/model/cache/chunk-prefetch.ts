// The chunks of a file, each loaded once and read while the next ones download: a reader at chunk
// `i` has the following PREFETCH chunks fetched meanwhile, and a download loads all of them a
// few at a time. A load that fails is dropped, so the next read tries again.
import { memoizePromise } from '../io/memoize-promise.ts';

/** chunks fetched ahead of the one being read */
const PREFETCH = 3;

export class ChunkPrefetch<C> {
  private readonly loading = new Map<number, Promise<C>>();

  constructor(
    private readonly chunks: number,
    private readonly load: (i: number) => Promise<C>,
  ) {}

  /** chunk `i`, loaded once */
  get(i: number): Promise<C> {
    return memoizePromise(this.loading, i, () => this.load(i));
  }

  /** chunk `i`, and the next ones fetched meanwhile (the download runs ahead of the reader) */
  ahead(i: number): Promise<C> {
    for (let next = i + 1; next <= i + PREFETCH && next < this.chunks; next++)
      if (!this.loading.has(next)) this.get(next).catch(() => undefined);
    return this.get(i);
  }

  /** forgets chunk `i` (held in memory and read: its bytes may go) */
  drop(i: number): void {
    this.loading.delete(i);
  }

  /**
   * Chunk `i` loaded again in place of `stale`, unless a reader has replaced it already: readers
   * that failed on the same chunk at once share one new load (each deleting the load another had
   * just started sent a whole chunk per reader to the hub, into memory).
   */
  async replace(i: number, stale: C): Promise<C> {
    const current = this.loading.get(i);
    if (current && (await current.catch(() => null)) === stale && this.loading.get(i) === current)
      this.loading.delete(i);
    return this.get(i);
  }

  /** every chunk, `concurrency` at a time, all stopping at the first failure */
  async all(concurrency: number): Promise<void> {
    let next = 0;
    const worker = async () => {
      try {
        for (let i = next++; i < this.chunks; i = next++) await this.get(i);
      } catch (e) {
        next = this.chunks;
        throw e;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, this.chunks) }, worker));
  }
}
