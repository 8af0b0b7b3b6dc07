// Checkpoint files converted for a precision, kept in the weight cache: a file whose converted
// form is stored whole (same source version, precision, conversions) is read from the cache and
// nothing from its source; otherwise its bytes stream from the source, are converted tensor by
// tensor (stream-convert.ts) and written chunk by chunk into a new cache entry. A cache that
// cannot store (said once through onCacheError) sends the run to memory (plain bytes), within a
// budget: past it, the run stops before downloading more. An entry found short is converted anew;
// a stored chunk that cannot be read back later drops its entry and fails the read with a
// BrowserCacheError that says so, and the next run converts the file anew.
import {
  BrowserCacheError,
  CHUNK_BYTES,
  checkWhole,
  chunkCount,
  chunkLength,
  storageOp,
  type FileVersion,
  type StoredFile,
  type WeightCache,
} from '../cache/weight-cache.ts';
import {
  blobFile,
  fileFromBytes,
  openWeightFile,
  type CheckpointFile,
  type CheckpointWeights,
} from '../io/checkpoint-file.ts';
import type { FileSource } from '../io/file-source.ts';
import { RangeBlob, chunkedStream } from '../io/range-blob.ts';
import { parseSafetensorsHeader } from '../io/safetensors/read.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import { planForFile, type ConversionPlan, type PlannedTensor } from './conversion-plan.ts';
import { convertedFileLayout, convertedVersion } from './converted-file.ts';
import { ConvertedCheckpoint } from './converted-checkpoint.ts';
import { SEGMENT_HEAP_BUDGET } from '../plan/segment-plan.ts';
import { formatBytes } from '../plan/format-bytes.ts';
import { convertSafetensorsStream, streamChunks } from './stream-convert.ts';

export interface WeightConverter {
  /** the checkpoint's tensors in the plan's forms, from the cache or converted into it */
  convert(
    precision: WeightPrecision,
    plan: ConversionPlan,
    checkpoint: CheckpointWeights,
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
  /** the most converted bytes held in memory when the cache cannot store them (default SEGMENT_HEAP_BUDGET) */
  memoryBudget?: number;
}

export function weightConverter(source: FileSource, opts: WeightConverterOptions): WeightConverter {
  const chunkBytes = opts.chunkBytes ?? CHUNK_BYTES;
  const budget = opts.memoryBudget ?? SEGMENT_HEAP_BUDGET;
  /** why the cache cannot store (it refused, or there is none); null while it stores */
  let refusal: string | null = opts.cache ? null : 'this browser gives the page no file storage';
  const done = new Map<WeightPrecision, Promise<ConvertedCheckpoint>>();
  /** the cache entries read or written, until `release` */
  let opened: StoredFile[] = [];

  async function prepare(
    into: WeightCache | null,
    name: string,
    tensors: readonly PlannedTensor[],
    precision: WeightPrecision,
  ) {
    const layout = convertedFileLayout(tensors, precision);
    const file = await openWeightFile(source, name, {});
    if (!file) throw new Error(`${source.describe(name)} not found`);
    const version = convertedVersion(file, precision, layout.size, chunkBytes);
    const found = into && (await storageOp(() => into.match(version)));
    if (found) opened.push(found);
    const whole = found?.complete && (await storedWhole(found, version));
    const describe = `${file.describe} (converted to ${precision})`;
    return { name, source: file, tensors, layout, version, describe, found: whole ? found : null };
  }

  /** one converted file of a run: where it goes, and what the cache holds of it whole (`found`) */
  type FileJob = Awaited<ReturnType<typeof prepare>>;

  async function convertFile(into: WeightCache | null, job: FileJob, plan: ConversionPlan, precision: WeightPrecision) {
    const { name, source: file, layout, version, describe, found } = job;
    const fileName = `${precision}/${name}`;
    const header = parseSafetensorsHeader(layout.head.subarray(8), layout.size, describe);
    // an unreadable entry is let go of (its open handles would keep it) and removed; the read fails saying so
    const stored = (entry: StoredFile) =>
      storedFile(entry, version, fileName, describe, async () => {
        await entry.release().catch(() => undefined);
        await storageOp(() => into!.delete(version)).catch(() => undefined);
      });
    if (found) {
      // a head that cannot be read back (the entry dropped) or differs: the file is converted anew
      const file = stored(found);
      const head = await file.read(0, layout.head.length).catch(() => null);
      if (head && sameBytes(head, layout.head)) return { file, header };
    }
    const entry = into && (await storageOp(() => into.put(version)));
    if (entry) opened.push(entry);
    // without a cache the file is one chunk in memory
    let bytes = new Uint8Array(0);
    const out = new ChunkWriter(
      entry ? version : { ...version, chunkBytes: Math.max(1, version.size) },
      async (i, chunk) => {
        if (!entry) return void (bytes = chunk);
        const written = await storageOp(() => entry.write(i, new Blob([chunk]).stream()));
        if (written !== chunk.length) throw new BrowserCacheError(`${version.url}: chunk ${i + 1} was stored short`);
      },
    );
    await out.put(layout.head);
    let part = 0;
    const converted = convertSafetensorsStream(streamChunks(streamOf(file)), {
      file: file.describe,
      size: file.size,
      conversionFor: (t) => plan.get(t.name) ?? null,
    });
    for await (const t of converted) {
      for (const p of t.parts) {
        const want = layout.parts[part++];
        if (want?.name !== p.name) throw new Error(`${describe}: part ${p.name} arrived where ${want?.name} belongs`);
        await out.put(p.bytes);
      }
    }
    await out.end();
    if (!entry) return { file: fileFromBytes(fileName, describe, bytes), header };
    await storageOp(() => entry.markComplete());
    return { file: stored(entry), header };
  }

  async function convertAll(precision: WeightPrecision, plan: ConversionPlan, checkpoint: CheckpointWeights) {
    // once the cache refused, the run goes to memory, and must fit the budget before a byte is downloaded
    const into = refusal === null ? opts.cache : null;
    const jobs: FileJob[] = [];
    for (const name of checkpoint.files.keys()) {
      const tensors = planForFile(plan, checkpoint.weights, name);
      if (tensors.length) jobs.push(await prepare(into, name, tensors, precision));
    }
    const need = jobs.reduce((n, j) => n + j.layout.size, 0);
    // converted weights that neither the browser cache can store nor the memory budget can hold
    if (refusal !== null && need > budget)
      throw new Error(
        `The ${precision} weights cannot be kept: the browser cache cannot store them (${refusal}), and the ${formatBytes(need)} of them it does not hold would pass the ${formatBytes(budget)} this page may hold in memory. Nothing more is downloaded. Free browser storage, or choose a smaller precision.`,
      );
    const files = [];
    for (const job of jobs) files.push(await convertFile(into, job, plan, precision));
    return new ConvertedCheckpoint(checkpoint, files);
  }

  return {
    async convert(precision, plan, checkpoint) {
      const had = await done.get(precision)?.catch(() => null);
      if (had?.covers(plan)) return had;
      const run = (async () => {
        try {
          return await convertAll(precision, plan, checkpoint);
        } catch (e) {
          if (!(e instanceof BrowserCacheError) || refusal !== null) throw e;
          refusal = e.message;
          opts.onCacheError?.(e);
          return convertAll(precision, plan, checkpoint);
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

/** the file's bytes from its first: its Blob's stream, else reads of a piece at a time (chunkedStream's) */
const streamOf = (f: CheckpointFile): ReadableStream<Uint8Array> =>
  f.blob ? f.blob().stream() : chunkedStream(f.size, f.size, 0, f.size, (_, from, to) => f.read(from, to - from));

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** every chunk of the entry is stored at its full length (a chunk cut short or gone: the file is converted anew) */
async function storedWhole(entry: StoredFile, v: FileVersion): Promise<boolean> {
  for (let i = 0; i < chunkCount(v.size, v.chunkBytes); i++)
    if (!(await storageOp(() => entry.has(i)).catch(() => false))) return false;
  return true;
}

/**
 * A stored converted file, read in parts and whole through one Blob over its chunks, read as the
 * cache reads them (a worker: through sync access handles, let go of by `release`). A chunk that
 * cannot be read whole (a failed checksum, a storage failure) drops the entry, and the read fails.
 */
function storedFile(
  stored: StoredFile,
  version: FileVersion,
  name: string,
  describe: string,
  drop: () => Promise<void>,
): CheckpointFile {
  const readChunk = async (i: number, from: number, to: number): Promise<Uint8Array> => {
    try {
      return checkWhole(version, i, from, to, await storageOp(() => stored.read(i, from, to)));
    } catch (e) {
      if (!(e instanceof BrowserCacheError)) throw e;
      await drop();
      throw new BrowserCacheError(
        `${describe}: the browser cache could not read back its converted weights (${e.message}); they are removed, and the next run converts them anew`,
        { cause: e },
      );
    }
  };
  const blob = new RangeBlob(
    (start, end) => chunkedStream(version.size, version.chunkBytes, start, end, readChunk),
    0,
    version.size,
  );
  return { ...blobFile(blob), name, describe };
}

/** bytes written in order, a chunk at a time: each chunk, once full, handed to `flush` */
class ChunkWriter {
  private chunk = 0;
  private buffer: Uint8Array<ArrayBuffer> | null = null;
  private filled = 0;

  constructor(
    private readonly version: FileVersion,
    private readonly flush: (i: number, chunk: Uint8Array<ArrayBuffer>) => Promise<void>,
  ) {}

  async put(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length;) {
      this.buffer ??= new Uint8Array(chunkLength(this.version, this.chunk));
      const n = Math.min(this.buffer.length - this.filled, bytes.length - at);
      this.buffer.set(bytes.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.buffer.length) {
        await this.flush(this.chunk++, this.buffer);
        this.buffer = null;
        this.filled = 0;
      }
    }
  }

  /** every byte of the version was put */
  async end(): Promise<void> {
    if (this.buffer || this.chunk * this.version.chunkBytes < this.version.size)
      throw new Error(
        `${this.version.url}: the conversion ended short of the ${this.version.size} bytes its header says`,
      );
  }
}
