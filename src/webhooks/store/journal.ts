// An append-only journal in one folder: one file per segment (`segment-<n>.wal`), records as in
// record-codec.ts. Appends resolve once the record is on disk: the segment is opened with O_DSYNC,
// so each write returns once its bytes are synced (one system call per batch, not a write and an
// fdatasync). With group commit, every record appended while one write runs goes out in the next
// write, so concurrent deliveries cost one sync per batch, not one each. A lazy append (a state
// change nobody waits on to answer a request) starts no write of its own: it goes out with the next
// eager one, or after LAZY_COMMIT_MS, and still resolves only once it is on disk. Compaction writes the live set
// into the next segment as `.tmp`, syncs it, renames it into place (atomic) and drops the older
// segments: a crash at any point leaves either the old segment or the whole new one.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeRecords, encodeRecord, type JournalRecord } from './record-codec.ts';

const write = (fd: number, buffer: Buffer) =>
  new Promise<number>((resolve, reject) => fs.write(fd, buffer, (err, n) => (err ? reject(err) : resolve(n))));
const fdatasync = promisify(fs.fdatasync);

export interface JournalOptions {
  /** Batch the fsyncs of concurrent appends (default true); false syncs each record on its own. */
  groupCommit?: boolean;
  /** Sync to disk before an append resolves (default true); false only for tests of other things. */
  fsync?: boolean;
}

export interface AppendOptions {
  /** Start no write for this record: it waits (at most LAZY_COMMIT_MS) to share the next one. */
  lazy?: boolean;
}

/** How long a lazy record waits for an eager one to share its write. */
export const LAZY_COMMIT_MS = 10;

export interface OpenedJournal {
  journal: Journal;
  records: JournalRecord[];
  /** Bytes of a torn or corrupt tail that were cut off the segment on open (0 when it was whole). */
  droppedBytes: number;
}

const SEGMENT = /^segment-(\d{8})\.wal$/;
const segmentName = (n: number) => `segment-${String(n).padStart(8, '0')}.wal`;

interface Pending {
  bytes: Buffer;
  lazy: boolean;
  resolve: () => void;
  reject: (err: unknown) => void;
}

// Where the platform has no O_DSYNC (Windows), each batch's write is followed by an fdatasync.
const O_DSYNC = fs.constants.O_DSYNC ?? 0;
const appendFlags = (sync: boolean) =>
  fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_RDWR | (sync ? O_DSYNC : 0);

function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export class Journal {
  private pending: Pending[] = [];
  /** Pending records that are not lazy: while there is one, the flush loop keeps going. */
  private eager = 0;
  private lazyTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Records written to the current segment, for the compaction policy. */
  recordCount: number;

  private constructor(
    private readonly dir: string,
    private segment: number,
    private fd: number,
    private size: number,
    recordCount: number,
    private readonly options: Required<JournalOptions>,
  ) {
    this.recordCount = recordCount;
  }

  /** Opens (or creates) the journal in `dir` and reads its records; a torn tail is cut off. */
  static open(dir: string, options: JournalOptions = {}): OpenedJournal {
    fs.mkdirSync(dir, { recursive: true });
    const names = fs.readdirSync(dir);
    for (const n of names) if (n.endsWith('.wal.tmp')) fs.rmSync(path.join(dir, n), { force: true });
    const segments = names
      .map((n) => SEGMENT.exec(n))
      .filter((m) => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const segment = segments.at(-1) ?? 1;
    // Only the newest segment is live: an older one is left only by a crash between a compaction's
    // rename and its cleanup, and the newer one holds everything it had.
    for (const old of segments.slice(0, -1)) fs.rmSync(path.join(dir, segmentName(old)), { force: true });
    const file = path.join(dir, segmentName(segment));
    const resolved = { groupCommit: options.groupCommit ?? true, fsync: options.fsync ?? true };
    const fd = fs.openSync(file, appendFlags(resolved.fsync));
    const data = fs.readFileSync(file);
    const { records, validBytes } = decodeRecords(data);
    if (validBytes < data.length) {
      fs.ftruncateSync(fd, validBytes);
      fs.fsyncSync(fd);
    }
    if (segments.length === 0) syncDir(dir);
    return {
      journal: new Journal(dir, segment, fd, validBytes, records.length, resolved),
      records,
      droppedBytes: data.length - validBytes,
    };
  }

  /** Appends one record; resolves once it is on disk. */
  append(record: JournalRecord, { lazy = false }: AppendOptions = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The delivery journal is closed.'));
    const bytes = encodeRecord(record);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ bytes, lazy, resolve, reject });
      if (lazy) {
        if (!this.flushing) this.lazyTimer ??= setTimeout(() => this.flushAll(), LAZY_COMMIT_MS);
        return;
      }
      this.eager++;
      this.flushing ??= this.flush(false);
    });
  }

  private flushAll(): void {
    clearTimeout(this.lazyTimer);
    this.lazyTimer = undefined;
    this.flushing ??= this.flush(true);
  }

  /** Writes batches while an eager record waits (or, with `all`, while anything does). */
  private async flush(all: boolean): Promise<void> {
    clearTimeout(this.lazyTimer);
    this.lazyTimer = undefined;
    try {
      while (this.pending.length && (all || this.eager > 0)) {
        const batch = this.options.groupCommit ? this.pending.splice(0) : this.pending.splice(0, 1);
        for (const p of batch) if (!p.lazy) this.eager--;
        const bytes = batch.length === 1 ? batch[0]!.bytes : Buffer.concat(batch.map((p) => p.bytes));
        try {
          let written = 0;
          while (written < bytes.length) written += await write(this.fd, bytes.subarray(written));
          if (this.options.fsync && !O_DSYNC) await fdatasync(this.fd);
          this.size += bytes.length;
          this.recordCount += batch.length;
          for (const p of batch) p.resolve();
        } catch (err) {
          // A half-written batch would hide every later record behind a bad one: cut it off.
          try {
            fs.ftruncateSync(this.fd, this.size);
          } catch {
            // The write error is what the callers hear about.
          }
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.flushing = undefined;
      if (this.pending.length && !this.closed) this.lazyTimer ??= setTimeout(() => this.flushAll(), LAZY_COMMIT_MS);
    }
  }

  /**
   * Replaces the journal with `snapshot()`, taken once every append so far is on disk. Appends made
   * meanwhile wait and go to the new segment; records must be idempotent (state, not increments),
   * since one whose effect is already in the snapshot may be written again after it.
   */
  async compact(snapshot: () => JournalRecord[]): Promise<void> {
    while (this.flushing) await this.flushing;
    // Holding `flushing` makes appends queue up until the new segment is in place.
    let done!: () => void;
    this.flushing = new Promise<void>((r) => (done = r));
    try {
      const records = snapshot();
      const next = this.segment + 1;
      const file = path.join(this.dir, segmentName(next));
      const tmp = `${file}.tmp`;
      const bytes = Buffer.concat(records.map(encodeRecord));
      const fd = fs.openSync(tmp, 'w');
      try {
        let written = 0;
        while (written < bytes.length) written += await write(fd, bytes.subarray(written));
        if (this.options.fsync) await fdatasync(fd);
      } catch (err) {
        fs.closeSync(fd);
        fs.rmSync(tmp, { force: true });
        throw err;
      }
      fs.closeSync(fd);
      fs.renameSync(tmp, file);
      if (this.options.fsync) syncDir(this.dir);
      const old = this.segment;
      fs.closeSync(this.fd);
      this.fd = fs.openSync(file, appendFlags(this.options.fsync));
      this.segment = next;
      this.size = bytes.length;
      this.recordCount = records.length;
      fs.rmSync(path.join(this.dir, segmentName(old)), { force: true });
    } finally {
      this.flushing = undefined;
      done();
      if (this.pending.length) this.flushing = this.flush(true);
    }
  }

  /** Waits for every append, then closes the file. */
  async close(): Promise<void> {
    while (this.flushing || this.pending.length) {
      if (!this.flushing) this.flushAll();
      await this.flushing;
    }
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
