// The bookkeeping every store of chunks shares (the origin private file system, memory, and the
// benchmarks' disk): which chunks are stored whole, the checksum each chunk is written with
// (chunk-sum.ts) and checked against the first time it is read, and the mark of a complete entry.
// A store supplies the primitives: a chunk written aside, then kept under its name with its sum
// (so a chunk is whole with its sum, or absent), ranges read, chunks removed, its meta saved.
import { memoizePromise } from '../io/memoize-promise.ts';
import { CHUNK_SUM, ChunkSum, summed } from './chunk-sum.ts';
import {
  ChunkSumError,
  checkWhole,
  chunkCount,
  chunkLength,
  type FileVersion,
  type StoredFile,
} from './weight-cache.ts';

/** what an entry records of itself */
export interface StoredMeta extends FileVersion {
  complete: boolean;
  /** the checksum its chunks are stored with (CHUNK_SUM) */
  checksum: string;
}

/** the meta of a new, empty entry */
export const newMeta = (v: FileVersion): StoredMeta => ({ ...v, complete: false, checksum: CHUNK_SUM });

/** bytes read at a time when a chunk is checked against its sum */
const CHECK_PIECE = 4 * 2 ** 20;

export abstract class StoredChunks implements StoredFile {
  private readonly present = new Set<number>();
  /** chunks checked against their sum (or written) by this entry: each is checked once */
  private readonly checked = new Map<number, Promise<void>>();

  constructor(protected meta: StoredMeta) {}

  get complete(): boolean {
    return this.meta.complete;
  }

  get allPresent(): boolean {
    return this.present.size === chunkCount(this.meta.size, this.meta.chunkBytes);
  }

  async has(i: number): Promise<boolean> {
    if (this.present.has(i)) return true;
    if ((await this.storedLength(i)) !== chunkLength(this.meta, i)) return false;
    this.present.add(i);
    return true;
  }

  /** chunk `i` from its body, summed as it passes; kept (with its sum) only when whole */
  async write(i: number, body: ReadableStream<Uint8Array>): Promise<number> {
    const sum = new ChunkSum();
    const written = await this.writeAside(i, summed(body, sum));
    if (written !== chunkLength(this.meta, i)) {
      await this.dropAside(i);
      return written;
    }
    try {
      await this.keep(i, sum.digest());
    } catch (e) {
      await this.dropAside(i);
      throw e;
    }
    this.present.add(i);
    this.checked.set(i, Promise.resolve());
    return written;
  }

  /** bytes [from, to) of chunk `i`; the first read of a chunk checks it whole against its sum */
  async read(i: number, from: number, to: number): Promise<Uint8Array> {
    await memoizePromise(this.checked, i, () => this.check(i));
    return checkWhole(this.meta, i, from, to, await this.readRange(i, from, to));
  }

  /**
   * Chunk `i` against the sum it was stored with: a chunk that differs (or lost its sum) is removed,
   * so that it is fetched again, and read as a BrowserCacheError (the callers' path for a chunk that
   * cannot be read back); so are the chunks of entries written before checksums.
   */
  private async check(i: number): Promise<void> {
    const want = await this.readSum(i);
    const sum = new ChunkSum();
    const length = chunkLength(this.meta, i);
    for (let at = 0; at < length; at += CHECK_PIECE) {
      const to = Math.min(length, at + CHECK_PIECE);
      sum.update(checkWhole(this.meta, i, at, to, await this.readRange(i, at, to)));
    }
    if (want !== null && sum.digest() === want) return;
    this.present.delete(i);
    await this.remove(i).catch(() => undefined);
    throw new ChunkSumError(
      `${this.meta.url}: chunk ${i + 1} of the browser cache ${want === null ? 'has lost its checksum' : 'does not match its checksum'}`,
    );
  }

  async markComplete(): Promise<void> {
    const meta = { ...this.meta, complete: true };
    await this.saveMeta(meta);
    this.meta = meta;
  }

  abstract release(): Promise<void>;
  /** the stored length of chunk `i`; null when it is not stored */
  protected abstract storedLength(i: number): Promise<number | null>;
  /** the body written beside chunk `i` (never in its place); the bytes written. A write that fails leaves nothing aside. */
  protected abstract writeAside(i: number, body: ReadableStream<Uint8Array>): Promise<number>;
  protected abstract dropAside(i: number): Promise<void>;
  /** `sum` stored for chunk `i`, then the bytes written aside put in its place */
  protected abstract keep(i: number, sum: string): Promise<void>;
  /** bytes [from, to) of stored chunk `i` (fewer when the stored chunk is short); a BrowserCacheError or the storage's error when missing */
  protected abstract readRange(i: number, from: number, to: number): Promise<Uint8Array>;
  /** the sum chunk `i` was stored with; null when there is none */
  protected abstract readSum(i: number): Promise<string | null>;
  /** chunk `i` and its sum gone */
  protected abstract remove(i: number): Promise<void>;
  protected abstract saveMeta(meta: StoredMeta): Promise<void>;
}
