// The weight cache in memory, for tests of what reads through a cache: the same entries as the
// browser's file storage. Chunks are kept until their entry is replaced or deleted.
import { newMeta, StoredChunks, type StoredMeta } from '../cache/stored-chunks.ts';
import { BrowserCacheError, type FileVersion, type WeightCache } from '../cache/weight-cache.ts';

const versionKey = (v: FileVersion) => JSON.stringify([v.url, v.etag]);

/** what the memory holds of one entry (tests reach in to damage it) */
export interface MemoryEntry {
  meta: StoredMeta;
  chunks: Map<number, Uint8Array<ArrayBuffer>>;
  sums: Map<number, string>;
}

/** one opening of an entry, as a visit opens a stored file: its chunks are checked once per opening */
class MemoryStoredFile extends StoredChunks {
  private readonly aside = new Map<number, Uint8Array<ArrayBuffer>>();
  private readonly chunks: MemoryEntry['chunks'];
  private readonly sums: MemoryEntry['sums'];

  constructor(private readonly entry: MemoryEntry) {
    super(entry.meta);
    ({ chunks: this.chunks, sums: this.sums } = entry);
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

  protected async keep(i: number, sum: string) {
    this.sums.set(i, sum);
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

  protected async saveMeta(meta: StoredMeta) {
    this.entry.meta = meta;
  }

  async release(): Promise<void> {}
}

/** the memory cache, and (for tests) its entries */
export function memoryCache(): WeightCache & { entries: ReadonlyMap<string, MemoryEntry> } {
  const entries = new Map<string, MemoryEntry>();
  return {
    entries,
    async match(v) {
      const e = entries.get(versionKey(v));
      return e && e.meta.size === v.size && e.meta.chunkBytes === v.chunkBytes ? new MemoryStoredFile(e) : null;
    },
    async put(v) {
      for (const [key, e] of entries) if (e.meta.url === v.url) entries.delete(key);
      const e: MemoryEntry = { meta: newMeta(v), chunks: new Map(), sums: new Map() };
      entries.set(versionKey(v), e);
      return new MemoryStoredFile(e);
    },
    async delete(v) {
      entries.delete(versionKey(v));
    },
  };
}
