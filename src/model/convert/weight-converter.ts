// Checkpoint files converted for a precision, kept in the weight cache: a file whose converted
// form is stored whole (same source version, precision, conversions) is read from the cache and
// nothing from its source; otherwise its bytes stream from the source, are converted tensor by
// tensor (stream-convert.ts) and written chunk by chunk into a new cache entry. A cache that
// cannot store (said once through onCacheError) sends the files it does not hold whole to memory,
// within a budget (memory-fallback.ts): past it, the run stops before downloading more. A stored chunk
// that cannot be read back whole (evicted, cut short, a storage failure) drops its entry, and the
// file's bytes are computed again from its tensors, read from the checkpoint (reconverted-file.ts).
import {
  BrowserCacheError,
  CHUNK_BYTES,
  checkWhole,
  chunkLength,
  storageOp,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from '../cache/weight-cache.ts';
import type { CheckpointFile, CheckpointFiles } from '../io/checkpoint-file.ts';
import { RangeBlob, chunkedStream } from '../io/range-blob.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import { planForFile, type ConversionPlan, type PlannedTensor } from './conversion-plan.ts';
import { convertedFileLayout, convertedVersion, parseConvertedHead } from './converted-file.ts';
import { ConvertedCheckpoint, type ConvertedFile } from './converted-checkpoint.ts';
import { reconvertedRanges } from './reconverted-file.ts';
import { SEGMENT_HEAP_BUDGET } from '../plan/segment-plan.ts';
import { formatBytes } from '../plan/format-bytes.ts';
import { ConvertedMemoryError, MemoryFallback } from './memory-fallback.ts';
import { convertSafetensorsStream, streamChunks, type ConverterMemory } from './stream-convert.ts';

/** where a checkpoint file's bytes come from, and what identifies its version in the cache */
export interface ConvertSource {
  /** the file's URL (with its revision), ETag and size */
  identity(file: string): { url: string; etag: string | null; size: number };
  /** the file's bytes from its first, as they arrive */
  stream(file: string): ReadableStream<Uint8Array>;
}

export interface WeightConverter {
  /** the checkpoint's tensors in the plan's forms, from the cache or converted into it */
  convert(
    precision: WeightPrecision,
    plan: ConversionPlan,
    checkpoint: { weights: WeightSet; files: CheckpointFiles },
  ): Promise<ConvertedCheckpoint>;
  /** lets go of the cache's files (a worker's open sync handles keep them from being removed); they reopen on the next read */
  release(): Promise<void>;
}

export interface WeightConverterOptions {
  /** null: converted into memory (within `memoryBudget`) */
  cache: WeightCache | null;
  onCacheError?(e: BrowserCacheError): void;
  /** CHUNK_BYTES unless a test wants small chunks */
  chunkBytes?: number;
  /** what the stream converter holds (for tests) */
  memory?: ConverterMemory;
  /** the most converted bytes held in memory when the cache cannot store them (default SEGMENT_HEAP_BUDGET) */
  memoryBudget?: number;
  /** the converted bytes held in memory now, and the most held (for tests) */
  held?: ConverterMemory;
}

/** one converted file of a run: where it goes, and what the cache holds of it already */
interface FileJob {
  name: string;
  tensors: readonly PlannedTensor[];
  layout: ReturnType<typeof convertedFileLayout>;
  version: FileVersion;
  describe: string;
  /** the cache's entry of this version, when there is one */
  found: StoredFile | null;
}

export function weightConverter(source: ConvertSource, opts: WeightConverterOptions): WeightConverter {
  const chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
  const budget = opts.memoryBudget ?? SEGMENT_HEAP_BUDGET;
  const held = opts.held ?? { held: 0, peak: 0 };
  /** why the cache cannot store (it refused, or there is none); null while it stores */
  let refusal: string | null = opts.cache ? null : 'this browser gives the page no file storage';
  const done = new Map<WeightPrecision, Promise<ConvertedCheckpoint>>();
  /** the cache entries read or written, until `release` */
  let opened: StoredFile[] = [];

  /** the cache the conversion of `precision` writes into: the browser's, or memory within the budget once it refused */
  function target(precision: WeightPrecision): WeightCache {
    if (refusal === null) return opts.cache!;
    const cause = refusal;
    return new MemoryFallback(
      opts.cache,
      budget,
      (need) =>
        new ConvertedMemoryError(
          `The ${precision} weights cannot be kept: the browser cache cannot store them (${cause}), and the ${formatBytes(need)} of them it does not hold would pass the ${formatBytes(budget)} this page may hold in memory. Nothing more is downloaded; what the cache holds stays. Free browser storage, or choose a smaller precision.`,
        ),
      held,
    );
  }

  async function prepare(
    into: WeightCache,
    name: string,
    tensors: readonly PlannedTensor[],
    precision: WeightPrecision,
  ): Promise<FileJob> {
    const layout = convertedFileLayout(tensors, precision);
    const id = source.identity(name);
    const version = convertedVersion(id, precision, layout.size, chunkBytes);
    const describe = `${id.url} (converted to ${precision})`;
    const found = await storageOp(() => into.match(version));
    if (found) opened.push(found);
    return { name, tensors, layout, version, describe, found };
  }

  async function convertFile(
    into: WeightCache,
    { name, tensors, layout, version, describe, found }: FileJob,
    plan: ConversionPlan,
    precision: WeightPrecision,
    files: CheckpointFiles,
  ): Promise<ConvertedFile> {
    const id = source.identity(name);
    const fileName = `${precision}/${name}`;
    const header = parseConvertedHead(layout.head, layout.size, describe);
    const stored = (entry: StoredFile) =>
      storedFile(entry, version, fileName, describe, {
        // the entry is let go of (its open handles would keep it) and removed; a failure to remove it is the cache's to say
        drop: async () => {
          await entry.release().catch(() => undefined);
          await storageOp(() => into.delete(version)).catch((e: unknown) => {
            if (!(e instanceof BrowserCacheError)) throw e;
            opts.onCacheError?.(e);
          });
        },
        again: reconvertedRanges(layout, tensors, (t) => files.get(t.fileName)!.read(t.offset, t.length)),
      });
    if (found?.complete) {
      const file = stored(found);
      if (sameBytes(await file.read(0, layout.head.length), layout.head)) return { file, header };
    }
    const entry = await storageOp(() => into.put(version));
    opened.push(entry);
    const out = new ChunkWriter(entry, version);
    await out.put(layout.head);
    let part = 0;
    const converted = convertSafetensorsStream(streamChunks(source.stream(name)), {
      file: id.url,
      size: id.size,
      conversionFor: (t) => plan.get(t.name) ?? null,
      memory: opts.memory,
    });
    for await (const t of converted) {
      for (const p of t.parts) {
        const want = layout.parts[part++];
        if (want?.name !== p.name) throw new Error(`${describe}: part ${p.name} arrived where ${want?.name} belongs`);
        await out.put(p.bytes);
      }
    }
    await out.end();
    await storageOp(() => entry.markComplete());
    return { file: stored(entry), header };
  }

  async function convertAll(
    into: WeightCache,
    precision: WeightPrecision,
    plan: ConversionPlan,
    checkpoint: { weights: WeightSet; files: CheckpointFiles },
  ): Promise<ConvertedCheckpoint> {
    const jobs: FileJob[] = [];
    for (const name of checkpoint.files.keys()) {
      const tensors = planForFile(plan, checkpoint.weights, name);
      if (tensors.length) jobs.push(await prepare(into, name, tensors, precision));
    }
    // in memory, what the cache does not hold whole must fit the budget before a byte is downloaded
    if (into instanceof MemoryFallback)
      into.reserve(jobs.reduce((n, j) => n + (j.found?.complete ? 0 : j.layout.size), 0));
    const files: ConvertedFile[] = [];
    for (const job of jobs) files.push(await convertFile(into, job, plan, precision, checkpoint.files));
    return new ConvertedCheckpoint(checkpoint, files);
  }

  return {
    async convert(precision, plan, checkpoint) {
      const had = await done.get(precision)?.catch(() => null);
      if (had?.covers(plan)) return had;
      const run = (async () => {
        try {
          return await convertAll(target(precision), precision, plan, checkpoint);
        } catch (e) {
          if (!(e instanceof BrowserCacheError) || refusal !== null) throw e;
          // what the cache holds whole stays valid and is read from it; the rest goes to memory, within the budget
          refusal = e.message;
          opts.onCacheError?.(e);
          return convertAll(target(precision), precision, plan, checkpoint);
        }
      })();
      done.set(precision, run);
      return run;
    },
    async release() {
      const files = opened;
      opened = [];
      await Promise.allSettled(files.map((f) => f.release()));
    },
  };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** what a stored converted file falls back on when a chunk cannot be read back */
interface Fallback {
  /** removes the entry */
  drop(): Promise<void>;
  /** bytes [from, to) of the file computed again from its source */
  again(from: number, to: number): Promise<Uint8Array>;
}

/**
 * A stored converted file, read in parts and whole through one Blob over its chunks, read as the
 * cache reads them (a worker: through sync access handles, let go of by `release`). The first
 * chunk that cannot be read whole (the size the entry records) drops the entry: from then on
 * every read is computed again from the source.
 */
function storedFile(
  stored: StoredFile,
  version: FileVersion,
  name: string,
  describe: string,
  fallback: Fallback,
): CheckpointFile {
  let dropped: Promise<void> | null = null;
  const readChunk = async (i: number, from: number, to: number): Promise<Uint8Array> => {
    if (!dropped) {
      try {
        return checkWhole(version, i, from, to, await storageOp(() => stored.read(i, from, to)));
      } catch (e) {
        if (!(e instanceof BrowserCacheError)) throw e;
        dropped ??= fallback.drop();
      }
    }
    await dropped;
    const start = i * version.chunkBytes;
    return fallback.again(start + from, start + to);
  };
  const blob = new RangeBlob(
    (start, end) => chunkedStream(version.size, version.chunkBytes, start, end, readChunk),
    0,
    version.size,
  );
  return {
    name,
    describe,
    size: version.size,
    read: async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()),
    blob: () => blob,
  };
}

/** bytes written in order into a stored file's chunks: one chunk held at a time */
class ChunkWriter {
  private chunk = 0;
  private buffer: Uint8Array<ArrayBuffer> | null = null;
  private filled = 0;

  constructor(
    private readonly stored: StoredFile,
    private readonly version: FileVersion,
  ) {}

  async put(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      this.buffer ??= new Uint8Array(chunkLength(this.version, this.chunk));
      const n = Math.min(this.buffer.length - this.filled, bytes.length - at);
      this.buffer.set(bytes.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.buffer.length) await this.flush();
    }
  }

  private async flush(): Promise<void> {
    const buffer = this.buffer!;
    const written = await storageOp(() => this.stored.write(this.chunk, new Blob([buffer]).stream()));
    if (written !== buffer.length)
      throw new BrowserCacheError(`${this.version.url}: chunk ${this.chunk + 1} was stored short`);
    this.chunk++;
    this.buffer = null;
    this.filled = 0;
  }

  /** every byte of the version was put */
  async end(): Promise<void> {
    if (this.buffer || this.chunk * this.version.chunkBytes < this.version.size)
      throw new Error(
        `${this.version.url}: the conversion ended short of the ${this.version.size} bytes its header says`,
      );
  }
}
