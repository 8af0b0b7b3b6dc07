// A hub file read in chunks through the browser cache: each chunk from the cache, else from the
// hub (a Range request; one plain GET when the file is a single chunk) stored into the cache as
// it arrives. When the cache refuses a chunk (quota, private mode), or a stored chunk cannot be
// read back (removed, cut short), chunks come from the hub and are held in memory only until they
// have been read. `blob()` hands the file to onnxruntime-web as external data,
// read slice by slice while the download runs ahead.
import {
  BrowserCacheError,
  CHUNK_BYTES,
  chunkBounds,
  chunkCount,
  storageOp,
  type StoredFile,
  type WeightCache,
} from './browser-cache.ts';
import type { FileSource, RandomAccessFile } from './file-source.ts';
import { RangeBlob } from './range-blob.ts';
import { HubFileError, hubFetchRequired, hubFileUrl, hubSource, type HubRepo } from './hub-files.ts';

export interface ChunkOptions {
  /** where chunks are stored; null keeps them in memory until read. A refusal sets it to null, so
   * every file sharing these options goes uncached from then on. */
  cache: WeightCache | null;
  signal?: AbortSignal;
  /** bytes that arrived from the hub (a chunk at a time) */
  onFetched?(bytes: number): void;
  /** bytes of a chunk found stored already (an earlier download stopped part way) */
  onStored?(bytes: number): void;
  /** the cache refused a chunk: the rest of this file is read uncached */
  onCacheError?(e: BrowserCacheError): void;
  /** CHUNK_BYTES unless a test wants small chunks */
  chunkBytes?: number;
}

/** chunks fetched ahead of the one being read */
const PREFETCH = 3;
/** reads up to this size do not fetch a whole chunk */
const SMALL_READ = 2 ** 20;

interface Chunk {
  /** bytes [from, to) of the chunk */
  read(from: number, to: number): Promise<Uint8Array>;
  /** in the browser cache (disk); otherwise in memory, dropped once read */
  cached: boolean;
}

export class ChunkedHubFile {
  readonly url: string;
  readonly chunks: number;
  private readonly loading = new Map<number, Promise<Chunk>>();
  private readonly consumed = new Map<number, number>();
  private readonly chunkBytes: number;
  private storedFile: Promise<StoredFile | null> | null = null;

  constructor(
    private readonly repo: HubRepo,
    readonly name: string,
    readonly size: number,
    readonly etag: string | null,
    private readonly opts: ChunkOptions,
  ) {
    this.url = hubFileUrl(repo, name);
    this.chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
    this.chunks = chunkCount(size, this.chunkBytes);
  }

  private bounds(i: number): [number, number] {
    return chunkBounds(this.size, this.chunkBytes, i);
  }

  /** chunk `i`, and the next ones fetched meanwhile (the download runs ahead of the reader) */
  chunk(i: number): Promise<Chunk> {
    for (let next = i + 1; next <= i + PREFETCH && next < this.chunks; next++)
      if (!this.loading.has(next)) this.load(next).catch(() => undefined);
    return this.load(i);
  }

  /**
   * Bytes [offset, offset + length): from the chunk when it is there, else (a small read, like a
   * safetensors header before a session starts) by a Range request of its own.
   */
  async read(offset: number, length: number): Promise<Uint8Array> {
    const i = Math.floor(offset / this.chunkBytes);
    if (length > SMALL_READ || this.loading.has(i) || this.chunks === 1)
      return new Uint8Array(
        await this.blob()
          .slice(offset, offset + length)
          .arrayBuffer(),
      );
    const res = await hubFetchRequired(this.repo, this.name, {
      range: { start: offset, end: offset + length - 1 },
      signal: this.opts.signal,
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 206 || bytes.length !== length)
      throw new HubFileError(
        this.name,
        this.url,
        res.status,
        `expected ${length} bytes at ${offset}, got ${bytes.length}`,
      );
    return bytes;
  }

  private load(i: number): Promise<Chunk> {
    let p = this.loading.get(i);
    if (!p) {
      p = this.fetchChunk(i);
      p.catch(() => this.loading.delete(i));
      this.loading.set(i, p);
    }
    return p;
  }

  /** this file in the cache (opened once; kept after a refusal, for `release`); null when there is no cache or it refused */
  private store(): Promise<StoredFile | null> {
    const cache = this.opts.cache;
    if (!cache) return Promise.resolve(null);
    this.storedFile ??= this.orRefused(
      () => cache.file(this.url, this.etag, this.size, this.chunkBytes),
      () => null,
    );
    return this.storedFile;
  }

  /** a cache operation; when the storage fails, the cache is refused (said once) and `instead` answers */
  private async orRefused<T, U>(op: () => Promise<T>, instead: () => U | Promise<U>): Promise<T | U> {
    try {
      return await storageOp(op, this.opts.signal);
    } catch (e) {
      if (!(e instanceof BrowserCacheError)) throw e;
      const had = this.opts.cache;
      this.opts.cache = null;
      if (had) this.opts.onCacheError?.(e);
      return instead();
    }
  }

  private async fetchChunk(i: number): Promise<Chunk> {
    const store = await this.store();
    // a cache that cannot say whether it holds the chunk is refused
    const [start, end] = this.bounds(i);
    if (
      store &&
      this.opts.cache &&
      (await this.orRefused(
        () => store.has(i),
        () => false,
      ))
    ) {
      this.opts.onStored?.(end - start);
      return this.storedChunk(store, i);
    }
    const res = await this.request(start, end);
    if (store && this.opts.cache) {
      const written = await this.orRefused(
        () => store.write(i, res.body!),
        () => null,
      );
      // the body went to the refused write: this chunk, and the rest, come again uncached
      if (written === null) return this.fetchChunk(i);
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
    const blob = await res.blob();
    this.opts.onFetched?.(end - start);
    return { read: async (from, to) => new Uint8Array(await blob.slice(from, to).arrayBuffer()), cached: false };
  }

  /** a chunk in the cache; with the last one there, the file is marked complete */
  private async storedChunk(store: StoredFile, i: number): Promise<Chunk> {
    if (store.allPresent && !store.complete) {
      await storageOp(() => store.markComplete()).catch((e: unknown) => {
        if (!(e instanceof BrowserCacheError)) throw e;
        this.opts.onCacheError?.(e);
      });
    }
    // a stored chunk that cannot be read back (removed by another tab, cut short) comes from the hub
    const chunk: Chunk = {
      read: (from, to) =>
        this.orRefused(
          () => store.read(i, from, to),
          () => this.refetch(i, chunk, from, to),
        ),
      cached: true,
    };
    return chunk;
  }

  /** bytes [from, to) of chunk `i` fetched again, in place of the stored chunk `stale` */
  private async refetch(i: number, stale: Chunk, from: number, to: number): Promise<Uint8Array> {
    const current = this.loading.get(i);
    if (current && (await current.catch(() => null)) === stale) this.loading.delete(i);
    return (await this.load(i)).read(from, to);
  }

  /** lets go of the cache's files (a worker's open sync handles keep them from being removed) */
  async release(): Promise<void> {
    await (await this.storedFile?.catch(() => null))?.release();
  }

  /** the hub's answer for bytes [start, end), its status, ETag and length checked */
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

  /** bytes [start, end) as a stream, chunk by chunk; chunks held in memory are dropped once read */
  stream(start = 0, end = this.size): ReadableStream<Uint8Array> {
    let pos = start;
    const PIECE = 8 * 2 ** 20;
    return new ReadableStream<Uint8Array>({
      pull: async (ctl) => {
        if (pos >= end) return ctl.close();
        const i = Math.floor(pos / this.chunkBytes);
        const [c0, c1] = this.bounds(i);
        const to = Math.min(end, c1, pos + PIECE);
        const chunk = await this.chunk(i);
        ctl.enqueue(await chunk.read(pos - c0, to - c0));
        const read = (this.consumed.get(i) ?? 0) + (to - pos);
        this.consumed.set(i, read);
        if (!chunk.cached && read >= c1 - c0) this.loading.delete(i);
        pos = to;
      },
    });
  }

  /** the file as a Blob whose slices stream from the chunks (fetched as they are needed) */
  blob(): Blob {
    return new RangeBlob((start, end) => this.stream(start, end), 0, this.size);
  }

  /** every chunk into the cache (a few at a time, all stopping at the first failure); true when the file is now cached completely */
  async download(concurrency = 3): Promise<boolean> {
    if (!this.opts.cache) return false;
    let next = 0;
    const worker = async () => {
      try {
        for (let i = next++; i < this.chunks; i = next++) await this.load(i);
      } catch (e) {
        next = this.chunks;
        throw e;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, this.chunks) }, worker));
    return (await this.store())?.complete ?? false;
  }
}

/** a Blob read in parts (safetensors headers) and handed whole to a session */
export const blobFile = (blob: Blob): RandomAccessFile => ({
  size: blob.size,
  read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
  blob: () => blob,
});

export interface HubFileEntry {
  name: string;
  size: number;
  etag: string | null;
}

/**
 * Hub files for the model loader: the weight files chunked through the cache and opened for reads
 * in parts (headers) and as Blobs (the session's external data); other files read whole.
 */
export function chunkedHubSource(
  repo: HubRepo,
  weights: readonly HubFileEntry[],
  opts: ChunkOptions,
): FileSource & { complete(): Promise<boolean>; release(): Promise<void> } {
  const hub = hubSource(repo);
  const files = new Map(weights.map((w) => [w.name, new ChunkedHubFile(repo, w.name, w.size, w.etag, opts)]));
  return {
    describe: hub.describe,
    read: async (name, o) =>
      files.has(name) ? new Uint8Array(await new Response(files.get(name)!.stream()).arrayBuffer()) : hub.read(name, o),
    async open(name) {
      const f = files.get(name);
      if (!f) return null;
      return { size: f.size, read: (offset, length) => f.read(offset, length), blob: () => f.blob() };
    },
    /** the chunks a session did not read (tensors the graph does not use) into the cache too: true when every file is cached */
    async complete() {
      const done = await Promise.all([...files.values()].map((f) => f.download()));
      return done.every(Boolean);
    },
    /** closes what holds the cache's files (after a session has read its weights) */
    async release() {
      await Promise.all([...files.values()].map((f) => f.release()));
    },
  };
}
