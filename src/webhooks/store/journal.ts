// An append-only journal in one folder: one file per segment (segment-file.ts), records as in
// record-codec.ts; opening it reads what damage left (journal-open.ts). Every record goes to disk one
// way: `append` queues it, and the records queued in one turn of the event loop go out as one batch
// write. The segment is opened with O_DSYNC, so a write returns once its bytes are synced (one system
// call per batch, not a write and an fdatasync), and an append resolves only then. With group commit,
// up to MAX_WRITES_IN_FLIGHT batches are written at once, each at the offset it was given when it
// started, and what is queued while that many are in flight goes out as one batch in the next free
// write; a batch resolves only once it and every batch before it are on disk, and a failed batch cuts
// the file back to the last acknowledged record (taking the later batches with it), so the file never
// holds a torn or reordered record before an acknowledged one. Compaction writes the live set into the next segment as `.tmp`, syncs it,
// renames it into place (atomic) and drops the older segment: a crash at any point leaves either
// the old segment or the whole new one.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { consoleLogger, type WebhooksLogger } from '../logger.ts';
import { openSegments, type JournalDamage } from './journal-open.ts';
import { encodeRecord, type JournalRecord } from './record-codec.ts';
import { segmentName, writeAt, writeSegment } from './segment-file.ts';

const fdatasync = promisify(fs.fdatasync);

export interface JournalOptions {
  /** Where damage found on open is reported (default: the console). */
  logger?: WebhooksLogger;
  /** Batch the fsyncs of concurrent appends (default true); false syncs each record on its own. */
  groupCommit?: boolean;
  /** Sync to disk before an append resolves (default true); false only for tests of other things. */
  fsync?: boolean;
}

export interface OpenedJournal {
  journal: Journal;
  records: JournalRecord[];
  /** What damage or a torn tail cost, as logged (empty when every byte read whole). */
  damage: JournalDamage[];
}

interface Pending {
  bytes: Buffer;
  resolve: () => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

interface Batch {
  entries: Pending[];
  bytes: Buffer;
  offset: number;
  /** Undefined while its write runs. */
  outcome: Outcome | undefined;
}

/**
 * Batch writes in flight at once with group commit. Synced writes to one file overlap well (the
 * filesystem commits them together), and 4 is libuv's default thread pool, which runs them.
 */
export const MAX_WRITES_IN_FLIGHT = 4;

// Where the platform has no O_DSYNC (Windows), each batch's write is followed by an fdatasync. No
// O_APPEND: every write names its offset (Linux ignores the offset of a write to an O_APPEND file).
const O_DSYNC = fs.constants.O_DSYNC ?? 0;
const openFlags = (sync: boolean) => fs.constants.O_RDWR | (sync ? O_DSYNC : 0);

export class Journal {
  private pending: Pending[] = [];
  private kickSoon: NodeJS.Immediate | undefined;
  /** Batches being written, in file order; each resolves once it and every one before it is on disk. */
  private inFlight: Batch[] = [];
  /** Where the next batch goes: the end of the last batch started. */
  private end: number;
  /** A batch failed: no new one starts until those in flight have settled and the file is cut back. */
  private failing = false;
  /** Cutting back a failed write failed: tried again before the next write, which fails if it fails. */
  private cutTo: number | undefined;
  /** A compaction holds the journal: appends wait for the new segment. */
  private holding: Promise<void> | undefined;
  private drainWaiters: (() => void)[] = [];
  private closed = false;
  /** Records written to the current segment, for the compaction policy. */
  recordCount: number;

  private constructor(
    private readonly dir: string,
    private segment: number,
    private fd: number,
    /** Bytes of whole records on disk, every one acknowledged. */
    private size: number,
    recordCount: number,
    private readonly options: Required<Omit<JournalOptions, 'logger'>>,
  ) {
    this.recordCount = recordCount;
    this.end = size;
  }

  /** Opens (or creates) the journal in `dir` and reads its records, skipping and logging what is damaged. */
  static open(dir: string, options: JournalOptions = {}): OpenedJournal {
    const resolved = { groupCommit: options.groupCommit ?? true, fsync: options.fsync ?? true };
    const { segment, size, records, damage } = openSegments(dir, resolved.fsync, options.logger ?? consoleLogger);
    const fd = fs.openSync(path.join(dir, segmentName(segment)), openFlags(resolved.fsync));
    return { journal: new Journal(dir, segment, fd, size, records.length, resolved), records, damage };
  }

  /** Appends one record; resolves once it, and every record appended before it, is on disk. */
  append(record: JournalRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The delivery journal is closed.'));
    const bytes = encodeRecord(record);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ bytes, resolve, reject });
      // Records appended in the same turn of the event loop (the requests read from every socket that
      // was ready, the handlers that ended) share one write: under load that is many per write, when
      // idle it costs no wait.
      this.kickSoon ??= setImmediate(() => {
        this.kickSoon = undefined;
        this.kick();
      });
    });
  }

  /**
   * Starts batches while records are queued, up to the cap on writes in flight; what is queued while
   * the cap is reached goes out together in the next free write.
   */
  private kick(): void {
    const cap = this.options.groupCommit ? MAX_WRITES_IN_FLIGHT : 1;
    while (this.pending.length && this.inFlight.length < cap && !this.failing && !this.holding) {
      const entries = this.options.groupCommit ? this.pending.splice(0) : this.pending.splice(0, 1);
      const bytes = entries.length === 1 ? entries[0]!.bytes : Buffer.concat(entries.map((p) => p.bytes));
      const batch: Batch = { entries, bytes, offset: this.end, outcome: undefined };
      this.end += bytes.length;
      this.inFlight.push(batch);
      this.writeBatch(batch).then(
        () => this.settle(batch, { ok: true }),
        (error: unknown) => this.settle(batch, { ok: false, error }),
      );
    }
  }

  private async writeBatch({ bytes, offset }: Batch): Promise<void> {
    if (this.cutTo !== undefined) {
      this.cutBack(this.cutTo);
      this.cutTo = undefined;
    }
    // Positional writes: batches in flight at once land at the offsets they were given, in append order.
    let written = 0;
    while (written < bytes.length) written += await writeAt(this.fd, bytes.subarray(written), offset + written);
    if (this.options.fsync && !O_DSYNC) await fdatasync(this.fd);
  }

  private cutBack(to: number): void {
    fs.ftruncateSync(this.fd, to);
    if (this.options.fsync) fs.fdatasyncSync(this.fd);
  }

  /** Acknowledges batches in file order, each once every batch before it is on disk. */
  private settle(batch: Batch, outcome: Outcome): void {
    batch.outcome = outcome;
    while (this.inFlight[0]?.outcome?.ok) {
      const done = this.inFlight.shift()!;
      this.size += done.bytes.length;
      this.recordCount += done.entries.length;
      for (const p of done.entries) p.resolve();
    }
    const failed = this.inFlight[0]?.outcome;
    if (failed && !failed.ok) {
      this.failing = true;
      if (this.inFlight.some((b) => b.outcome === undefined)) return;
      // A half-written batch would hide every later record behind a bad one: cut the file back to the
      // last acknowledged record. Later batches go too, even if their own write succeeded: none was
      // acknowledged yet, and after the cut they are not on disk.
      try {
        this.cutBack(this.size);
      } catch {
        this.cutTo = this.size;
      }
      for (const b of this.inFlight.splice(0)) {
        const error = b.outcome && !b.outcome.ok ? b.outcome.error : failed.error;
        for (const p of b.entries) p.reject(error);
      }
      this.end = this.size;
      this.failing = false;
    }
    if (!this.inFlight.length) for (const w of this.drainWaiters.splice(0)) w();
    this.kick();
  }

  /** Resolves once no batch is in flight. */
  private drained(): Promise<void> {
    return this.inFlight.length ? new Promise<void>((r) => this.drainWaiters.push(r)) : Promise.resolve();
  }

  /**
   * Replaces the journal with `snapshot()` (records, or records already encoded), taken once every
   * append so far is on disk. Appends made
   * meanwhile wait and go to the new segment; records must be idempotent (state, not increments),
   * since one whose effect is already in the snapshot may be written again after it.
   */
  async compact(snapshot: () => (JournalRecord | Buffer)[]): Promise<void> {
    while (this.holding) await this.holding;
    // Holding the journal makes appends queue up until the new segment is in place.
    let release!: () => void;
    this.holding = new Promise<void>((r) => (release = r));
    try {
      await this.drained();
      const records = snapshot().map((r) => (Buffer.isBuffer(r) ? r : encodeRecord(r)));
      const next = this.segment + 1;
      const header = { segment: next, from: this.segment, snapshot: records.length };
      const { file, size } = await writeSegment(this.dir, header, records, this.options.fsync);
      const old = this.segment;
      fs.closeSync(this.fd);
      this.fd = fs.openSync(file, openFlags(this.options.fsync));
      this.segment = next;
      this.size = this.end = size;
      this.cutTo = undefined;
      this.recordCount = records.length;
      fs.rmSync(path.join(this.dir, segmentName(old)), { force: true });
    } finally {
      this.holding = undefined;
      release();
      // What waited goes out now.
      this.kick();
    }
  }

  /** Waits for every append, then closes the file. */
  async close(): Promise<void> {
    while (this.pending.length || this.inFlight.length || this.holding) {
      if (this.holding) await this.holding;
      this.kick();
      await this.drained();
    }
    if (this.closed) return;
    this.closed = true;
    clearImmediate(this.kickSoon);
    fs.closeSync(this.fd);
  }
}
