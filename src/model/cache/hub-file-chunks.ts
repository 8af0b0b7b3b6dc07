// A hub file read in chunks: each chunk from the weight cache or the hub (cache-policy.ts), the
// next ones fetched while one is read (chunk-prefetch.ts). `blob()` hands the file to
// onnxruntime-web as external data, read slice by slice while the download runs ahead; chunks
// held in memory (no cache) are dropped once read.
import { ChunkCachePolicy, SharedCache, type Chunk, type ChunkEvents } from './cache-policy.ts';
import { ChunkPrefetch } from './chunk-prefetch.ts';
import { hubFileUrl, type HubRepo } from '../io/hub-files.ts';
import { RangeBlob, chunkedStream } from '../io/range-blob.ts';
import {
  CHUNK_BYTES,
  chunkBounds,
  chunkCount,
  type BrowserCacheError,
  type FileVersion,
  type WeightCache,
} from './weight-cache.ts';

export interface ChunkOptions extends ChunkEvents {
  /** where chunks are stored; null keeps them in memory until read */
  cache: WeightCache | null;
  signal?: AbortSignal;
  /** the cache refused a chunk: the rest of this file is read uncached */
  onCacheError?(e: BrowserCacheError): void;
  /** CHUNK_BYTES unless a test wants small chunks */
  chunkBytes?: number;
}

export class ChunkedHubFile {
  readonly url: string;
  readonly chunks: number;
  private readonly version: FileVersion;
  private readonly policy: ChunkCachePolicy;
  private readonly prefetch: ChunkPrefetch<Chunk>;
  /** bytes read so far of each chunk held in memory */
  private readonly consumed = new Map<number, number>();

  /** `cache` is shared by the files of one load (a refusal sends them all uncached); by default this file's own */
  constructor(
    repo: HubRepo,
    readonly name: string,
    readonly size: number,
    readonly etag: string | null,
    opts: ChunkOptions,
    private readonly cache = new SharedCache(opts.cache, opts.onCacheError),
  ) {
    this.url = hubFileUrl(repo, name);
    const chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
    this.chunks = chunkCount(size, chunkBytes);
    this.version = { url: this.url, etag, size, chunkBytes };
    const reload = (i: number, stale: Chunk) => this.prefetch.replace(i, stale);
    this.policy = new ChunkCachePolicy({ repo, name, etag, signal: opts.signal }, this.version, cache, opts, reload);
    this.prefetch = new ChunkPrefetch(this.chunks, (i) => this.policy.load(i));
  }

  /** bytes [start, end) as a stream, chunk by chunk */
  stream(start = 0, end = this.size): ReadableStream<Uint8Array> {
    return chunkedStream(this.size, this.version.chunkBytes, start, end, async (i, from, to) => {
      const chunk = await this.prefetch.ahead(i);
      const bytes = await chunk.read(from, to);
      this.readOf(i, chunk, to - from);
      return bytes;
    });
  }

  /** `bytes` more of chunk `i` were read: a chunk held in memory goes once read whole */
  private readOf(i: number, chunk: Chunk, bytes: number): void {
    const [c0, c1] = chunkBounds(this.size, this.version.chunkBytes, i);
    const read = (this.consumed.get(i) ?? 0) + bytes;
    this.consumed.set(i, read);
    if (!chunk.cached && read >= c1 - c0) this.prefetch.drop(i);
  }

  /** the file as a Blob whose slices stream from the chunks (fetched as they are needed) */
  blob(): Blob {
    return new RangeBlob((start, end) => this.stream(start, end), 0, this.size);
  }

  /** every chunk into the cache (a few at a time, all stopping at the first failure); true when the file is now cached completely */
  async download(concurrency = 3): Promise<boolean> {
    if (!this.cache.current) return false;
    await this.prefetch.all(concurrency);
    return this.policy.complete();
  }

  /** lets go of the cache's files (a worker's open sync handles keep them from being removed) */
  release(): Promise<void> {
    return this.policy.release();
  }
}
