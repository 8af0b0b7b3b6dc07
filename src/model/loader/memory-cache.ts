// The weight cache in memory: the same entries as the browser's file storage, for code that has
// none (Node, tests of what reads through a cache). Chunks are kept until their entry is replaced
// or deleted.
import { newMeta, StoredChunks, type StoredMeta } from './stored-chunks.ts';
import { BrowserCacheError, chunkCount, type FileVersion, type WeightCache } from './weight-cache.ts';

const versionKey = (v: FileVersion) => JSON.stringify([v.url, v.etag]);

export class MemoryStoredFile extends StoredChunks {
  /** the stored chunks and their sums (tests reach in to damage them) */
  readonly chunks = new Map<number, Uint8Array<ArrayBuffer>>();
  readonly sums = new Map<number, string>();
  private readonly aside = new Map<number, Uint8Array<ArrayBuffer>>();

  get version(): StoredMeta {
    return this.meta;
  }

  protected async storedLength(i: number) {
    return this.chunks.get(i)?.length ?? null;
  }

  protected async writeAside(i: number, body: ReadableStream<Uint8Array>) {
    const bytes = new Uint8Array(await new Response(body).arrayBuffer());
    this.aside.set(i, bytes);
    return bytes.length;
  }

  protected async dropAside(i: number) {
    this.aside.delete(i);
  }

  protected async keep(i: number, sum: string | null) {
    if (sum !== null) this.sums.set(i, sum);
    this.chunks.set(i, this.aside.get(i)!);
    this.aside.delete(i);
  }

  protected async readRange(i: number, from: number, to: number) {
    const chunk = this.chunks.get(i);
    if (!chunk) throw new BrowserCacheError(`${this.meta.url}: chunk ${i + 1} is not in the memory cache`);
    return chunk.slice(from, to);
  }

  protected async readSum(i: number) {
    return this.sums.get(i) ?? null;
  }

  protected async remove(i: number) {
    this.chunks.delete(i);
    this.sums.delete(i);
  }

  protected async saveMeta() {}

  async blob(): Promise<Blob> {
    const n = chunkCount(this.meta.size, this.meta.chunkBytes);
    return new Blob(Array.from({ length: n }, (_, i) => this.chunks.get(i) ?? new Uint8Array(0)));
  }

  async release(): Promise<void> {}
}

/** the memory cache, and (for tests) its entries */
export function memoryCache(): WeightCache & { entries: ReadonlyMap<string, MemoryStoredFile> } {
  const entries = new Map<string, MemoryStoredFile>();
  return {
    entries,
    async match(v) {
      const e = entries.get(versionKey(v));
      return e && e.version.size === v.size && e.version.chunkBytes === v.chunkBytes ? e : null;
    },
    async put(v) {
      for (const [key, e] of entries) if (e.version.url === v.url) entries.delete(key);
      const e = new MemoryStoredFile(newMeta(v));
      entries.set(versionKey(v), e);
      return e;
    },
    async delete(v) {
      entries.delete(versionKey(v));
    },
  };
}
