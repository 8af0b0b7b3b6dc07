// A hub file read in chunks: each chunk from the weight cache when it holds it, else from the hub
// (a Range request per chunk; one plain GET for a file of one chunk), stored into the cache as it
// arrives. When the cache refuses (quota, private mode), chunks come from the hub and are held in
// memory only, and every file of the load goes uncached from then on. The next chunks are fetched
// while one is read (chunk-prefetch.ts). `blob()` hands the file to onnxruntime-web as external
// data, read slice by slice while the download runs ahead; chunks held in memory (no cache) are
// dropped once read. A stored chunk that cannot be read back (another tab, cut short, a failed
// checksum) comes again.
import { ChunkPrefetch } from './chunk-prefetch.ts';
import { HubFileError, hubFetchRequired, hubFileUrl, type HubRepo } from '../io/hub-files.ts';
import { RangeBlob, chunkedStream } from '../io/range-blob.ts';
import {
  BrowserCacheError,
  CHUNK_BYTES,
  ChunkSumError,
  chunkBounds,
  chunkCount,
  storageOp,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from './weight-cache.ts';

/** a chunk of a file, ready to read */
interface Chunk {
  /** bytes [from, to) of the chunk */
  read(from: number, to: number): Promise<Uint8Array>;
  /** in the weight cache; otherwise in memory, to be dropped once read */
  cached: boolean;
}

/** the cache of one load, shared by its files: the first refusal (said once) sends them all uncached */
export class SharedCache {
  constructor(
    /** the cache while it has not refused; null without one */
    public current: WeightCache | null,
    private readonly onCacheError?: (e: BrowserCacheError) => void,
  ) {}

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
      const had = this.current;
      this.current = null;
      if (had) this.onCacheError?.(e);
      return instead();
    }
  }
}

export interface ChunkOptions {
  /** bytes that arrived from the hub (a chunk at a time) */
  onFetched?(bytes: number): void;
  /** bytes of a chunk found stored already (an earlier download stopped part way) */
  onStored?(bytes: number): void;
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
  private readonly prefetch: ChunkPrefetch<Chunk>;
  /** bytes read so far of each chunk held in memory */
  private readonly consumed = new Map<number, number>();
  /** this file in the cache (opened once; kept after a refusal, for `release`); null when there is no cache or it refused */
  private stored: Promise<StoredFile | null> | null = null;

  /** `cache` is shared by the files of one load (a refusal sends them all uncached); by default this file's own */
  constructor(
    private readonly repo: HubRepo,
    readonly name: string,
    readonly size: number,
    readonly etag: string | null,
    private readonly opts: ChunkOptions,
    private readonly cache = new SharedCache(opts.cache, opts.onCacheError),
  ) {
    this.url = hubFileUrl(repo, name);
    const chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
    this.chunks = chunkCount(size, chunkBytes);
    this.version = { url: this.url, etag, size, chunkBytes };
    this.prefetch = new ChunkPrefetch(this.chunks, (i) => this.load(i));
  }

  /** bytes [start, end) as a stream, chunk by chunk */
  stream(start = 0, end = this.size): ReadableStream<Uint8Array> {
    return chunkedStream(this.size, this.version.chunkBytes, start, end, async (i, from, to) => {
      const chunk = await this.prefetch.ahead(i);
      const bytes = await chunk.read(from, to);
      // a chunk held in memory goes once read whole
      const read = (this.consumed.get(i) ?? 0) + to - from;
      this.consumed.set(i, read);
      if (!chunk.cached && read >= this.bounds(i)[1] - this.bounds(i)[0]) this.prefetch.drop(i);
      return bytes;
    });
  }

  /** the file as a Blob whose slices stream from the chunks (fetched as they are needed) */
  blob(): Blob {
    return new RangeBlob((start, end) => this.stream(start, end), 0, this.size);
  }

  /** every chunk into the cache (a few at a time, all stopping at the first failure); true when the file is now cached completely */
  async download(concurrency = 3): Promise<boolean> {
    if (!this.cache.current) return false;
    await this.prefetch.all(concurrency);
    return (await this.store())?.complete ?? false;
  }

  /** lets go of the cache's files (a worker's open sync handles keep them from being removed) */
  async release(): Promise<void> {
    await (await this.stored?.catch(() => null))?.release();
  }

  private bounds(i: number): [number, number] {
    return chunkBounds(this.size, this.version.chunkBytes, i);
  }

  private attempt<T, U>(op: () => Promise<T>, instead: () => U | Promise<U>): Promise<T | U> {
    return this.cache.attempt(op, instead, this.opts.signal);
  }

  private store(): Promise<StoredFile | null> {
    const cache = this.cache.current;
    if (!cache) return Promise.resolve(null);
    this.stored ??= this.attempt(
      async () => (await cache.match(this.version)) ?? cache.put(this.version),
      () => null,
    );
    return this.stored;
  }

  /** chunk `i`: stored, fetched into the cache, or (no cache) fetched into memory */
  private async load(i: number): Promise<Chunk> {
    const store = await this.store();
    const [start, end] = this.bounds(i);
    const held = (s: StoredFile) =>
      this.attempt(
        () => s.has(i),
        () => false,
      );
    if (store && this.cache.current && (await held(store))) {
      this.opts.onStored?.(end - start);
      return this.storedChunk(store, i);
    }
    const res = await this.request(start, end);
    if (store && this.cache.current) return this.fetchedIntoCache(store, i, res);
    const blob = await res.blob();
    this.opts.onFetched?.(end - start);
    return { read: async (from, to) => new Uint8Array(await blob.slice(from, to).arrayBuffer()), cached: false };
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
        this.name,
        this.url,
        206,
        `the download of bytes ${start}-${end - 1} ended after ${written} bytes`,
      );
    this.opts.onFetched?.(end - start);
    return this.storedChunk(store, i);
  }

  /** a chunk in the cache; with the last one there, the file is marked complete (a refused mark refuses the cache) */
  private async storedChunk(store: StoredFile, i: number): Promise<Chunk> {
    if (store.allPresent && !store.complete)
      await this.attempt(
        () => store.markComplete(),
        () => undefined,
      );
    // a stored chunk that cannot be read back comes from the hub, one load shared by the readers that
    // failed on it (one that failed its checksum was removed, and is stored again)
    const chunk: Chunk = {
      read: (from, to) =>
        this.attempt(
          () => store.read(i, from, to),
          async () => (await this.prefetch.replace(i, chunk)).read(from, to),
        ),
      cached: true,
    };
    return chunk;
  }

  /**
   * The hub's answer for bytes [start, end) of the file (a file of one chunk is asked without a
   * Range); a chunk of another version than the one inspected (its ETag) is refused.
   */
  private async request(start: number, end: number): Promise<Response> {
    const whole = this.chunks === 1;
    // chunks go to the weight cache (or are read once): a copy in the browser's HTTP cache would
    // only put the same gigabytes on disk twice
    const res = await hubFetchRequired(this.repo, this.name, {
      ...(whole ? {} : { range: { start, end: end - 1 } }),
      signal: this.opts.signal,
      cache: 'no-store',
    });
    const fail = async (detail: string) => {
      await res.body?.cancel();
      return new HubFileError(this.name, this.url, res.status, detail);
    };
    if (!whole && res.status !== 206) throw await fail('the hub ignored the Range request for a chunk of the file');
    const etag = res.headers.get('etag');
    if (this.etag && etag && etag !== this.etag)
      throw await fail('the file changed on the hub while it was read; inspect the checkpoint again');
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) !== end - start)
      throw await fail(`expected ${end - start} bytes, the hub announced ${length}`);
    return res;
  }
}
