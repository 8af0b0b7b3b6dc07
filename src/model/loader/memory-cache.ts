// The weight cache in memory: the same entries as the browser's file storage, for code that has
// none (Node, tests of what reads through a cache). Chunks are kept until their entry is replaced
// or deleted.
import {
  BrowserCacheError,
  checkWhole,
  chunkCount,
  chunkLength,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from './weight-cache.ts';

const versionKey = (v: FileVersion) => JSON.stringify([v.url, v.etag]);

class MemoryStoredFile implements StoredFile {
  readonly chunks = new Map<number, Uint8Array<ArrayBuffer>>();
  complete = false;

  constructor(readonly version: FileVersion) {}

  get allPresent(): boolean {
    return this.chunks.size === chunkCount(this.version.size, this.version.chunkBytes);
  }

  async has(i: number): Promise<boolean> {
    return this.chunks.has(i);
  }

  async write(i: number, body: ReadableStream<Uint8Array>): Promise<number> {
    const bytes = new Uint8Array(await new Response(body).arrayBuffer());
    if (bytes.length === chunkLength(this.version, i)) this.chunks.set(i, bytes);
    return bytes.length;
  }

  async read(i: number, from: number, to: number): Promise<Uint8Array> {
    const chunk = this.chunks.get(i);
    if (!chunk) throw new BrowserCacheError(`${this.version.url}: chunk ${i + 1} is not in the memory cache`);
    return checkWhole(this.version, i, from, to, chunk.slice(from, to));
  }

  async blob(): Promise<Blob> {
    const n = chunkCount(this.version.size, this.version.chunkBytes);
    return new Blob(Array.from({ length: n }, (_, i) => this.chunks.get(i) ?? new Uint8Array(0)));
  }

  async markComplete(): Promise<void> {
    this.complete = true;
  }

  async release(): Promise<void> {}
}

export function memoryCache(): WeightCache {
  const entries = new Map<string, MemoryStoredFile>();
  return {
    async match(v) {
      const e = entries.get(versionKey(v));
      return e && e.version.size === v.size && e.version.chunkBytes === v.chunkBytes ? e : null;
    },
    async put(v) {
      for (const [key, e] of entries) if (e.version.url === v.url) entries.delete(key);
      const e = new MemoryStoredFile({ url: v.url, etag: v.etag, size: v.size, chunkBytes: v.chunkBytes });
      entries.set(versionKey(v), e);
      return e;
    },
    async delete(v) {
      entries.delete(versionKey(v));
    },
  };
}
