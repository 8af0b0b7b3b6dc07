// A journal's segment files: `segment-<n>.wal`, each starting with a header record that says which
// segment it is, which segment it replaces (`from`), and how many records after the header hold that
// segment's whole content (`snapshot`). A new segment is written as `.tmp`, synced, renamed into
// place (atomic) and the folder synced: a crash leaves the whole new segment or none of it.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { encodeRecord, type JournalRecord } from './record-codec.ts';

export const SEGMENT = /^segment-(\d+)\.wal$/;
export const segmentName = (n: number) => `segment-${String(n).padStart(8, '0')}.wal`;

export interface SegmentHeader {
  segment: number;
  /** The segment whose content this one holds (a compaction or a salvage of it); absent for a first one. */
  from?: number;
  /** Records after the header that hold that content; records after them were appended later. */
  snapshot: number;
}

export const isHeader = (r: JournalRecord) => r.meta.k === 'S';

export function headerOf(r: JournalRecord | undefined): SegmentHeader | undefined {
  const m = r?.meta;
  if (!m || m.k !== 'S' || typeof m.segment !== 'number' || typeof m.snapshot !== 'number') return undefined;
  return { segment: m.segment, from: typeof m.from === 'number' ? m.from : undefined, snapshot: m.snapshot };
}

const encodeHeader = (h: SegmentHeader) => encodeRecord({ meta: { k: 'S', ...h } });

export function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const fdatasync = promisify(fs.fdatasync);
export const writeAt = (fd: number, buffer: Buffer, position: number) =>
  new Promise<number>((resolve, reject) =>
    fs.write(fd, buffer, 0, buffer.length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );

export interface NewSegment {
  file: string;
  /** Its size in bytes, header included. */
  size: number;
}

interface Writing {
  file: string;
  tmp: string;
  bytes: Buffer;
  fd: number;
}

function begin(dir: string, header: SegmentHeader, records: Buffer[]): Writing {
  const file = path.join(dir, segmentName(header.segment));
  const tmp = `${file}.tmp`;
  return { file, tmp, bytes: Buffer.concat([encodeHeader(header), ...records]), fd: fs.openSync(tmp, 'w') };
}

function abandon(w: Writing, err: unknown): never {
  fs.closeSync(w.fd);
  fs.rmSync(w.tmp, { force: true });
  throw err;
}

/** Renames the written (and, with `fsync`, synced) file into place and syncs the folder. */
function finish(dir: string, w: Writing, fsync: boolean): NewSegment {
  fs.closeSync(w.fd);
  fs.renameSync(w.tmp, w.file);
  if (fsync) syncDir(dir);
  return { file: w.file, size: w.bytes.length };
}

/**
 * Writes segment `header.segment` holding `records` (encoded) after its header, without blocking the
 * event loop on the write (a compaction).
 */
export async function writeSegment(
  dir: string,
  header: SegmentHeader,
  records: Buffer[],
  fsync: boolean,
): Promise<NewSegment> {
  const w = begin(dir, header, records);
  try {
    let written = 0;
    while (written < w.bytes.length) written += await writeAt(w.fd, w.bytes.subarray(written), written);
    if (fsync) await fdatasync(w.fd);
  } catch (err) {
    abandon(w, err);
  }
  return finish(dir, w, fsync);
}

/** As writeSegment, blocking (opening a store, which is synchronous). */
export function writeSegmentSync(dir: string, header: SegmentHeader, records: Buffer[], fsync: boolean): NewSegment {
  const w = begin(dir, header, records);
  try {
    let written = 0;
    while (written < w.bytes.length) written += fs.writeSync(w.fd, w.bytes, written, w.bytes.length - written, written);
    if (fsync) fs.fdatasyncSync(w.fd);
  } catch (err) {
    abandon(w, err);
  }
  return finish(dir, w, fsync);
}
