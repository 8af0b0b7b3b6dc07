// Opening a journal folder, whatever state a crash or damage left it in. Every segment file is read
// record by record, skipping what fails its check (segment-scan.ts), and every loss is logged: the
// segment, the offset, the bytes and the delivery ids still readable in them. Only the bytes after the
// newest segment's last whole record are a torn tail (a write cut short by a stop: never acknowledged),
// cut off the file. Anything else damaged, a segment of the format before record magics, or several
// segments with none replacing the others: their records are carried into a fresh segment, and then a
// file whose every byte was carried is removed, a damaged one is renamed `*.damaged-<time>` and kept
// for inspection. A file is removed only when it is empty or everything in it is in a newer segment.
import fs from 'node:fs';
import path from 'node:path';
import type { WebhooksLogger } from '../logger.ts';
import { encodeRecord, type JournalRecord } from './record-codec.ts';
import { scanSegment, type DamagedRange, type ScannedSegment } from './segment-scan.ts';
import { headerOf, isHeader, SEGMENT, segmentName, syncDir, writeSegmentSync } from './segment-file.ts';

export interface OpenedSegments {
  /** The segment appends go to, and its size (whole records only). */
  segment: number;
  size: number;
  /** Every record read, in order, less the segments' headers. */
  records: JournalRecord[];
  /** What was lost to damage or a torn tail (empty when every byte read whole). */
  damage: JournalDamage[];
}

export interface JournalDamage extends DamagedRange {
  segment: string;
  /** The bytes after the newest segment's last whole record: a write cut short. */
  tornTail: boolean;
}

interface Segment {
  n: number;
  name: string;
  file: string;
  data: Buffer;
  size: number;
  scan: ScannedSegment;
  damage: JournalDamage[];
}

const damagedName = (name: string) => `${name}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;

function readSegment(dir: string, n: number): Segment {
  const name = segmentName(n);
  const file = path.join(dir, name);
  const data = fs.readFileSync(file);
  const scan = scanSegment(data);
  const damage = scan.damaged.map((d) => ({ ...d, segment: name, tornTail: false }));
  return { n, name, file, data, size: data.length, scan, damage };
}

/** Marks the bytes after the last whole record of the newest segment that has one as its torn tail. */
function markTornTail(segments: Segment[]): void {
  const newest = segments.filter((s) => s.scan.records.length).at(-1);
  const last = newest?.damage.at(-1);
  if (last && last.offset + last.bytes === newest!.size) last.tornTail = true;
}

const lost = (s: Segment) => s.damage.filter((d) => !d.tornTail);

function logDamage(d: JournalDamage, logger: WebhooksLogger): void {
  const named = d.ids.length ? `delivery ${d.ids.join(', ')}` : 'no delivery id readable';
  logger.warn(
    d.tornTail
      ? `Delivery store: ${d.segment}: dropped its last ${d.bytes} bytes (offset ${d.offset}), a record cut short by a stop mid-write (${named}).`
      : `Delivery store: ${d.segment}: skipped ${d.bytes} damaged bytes at offset ${d.offset} (lost: the records there, ${named}); the records after them are kept.`,
  );
}

/** Removes a file whose content is all in a newer segment (or none); renames a damaged one aside. */
function retire(dir: string, s: Segment, logger: WebhooksLogger, why: string): void {
  if (!lost(s).length && s.scan.records.length) {
    fs.rmSync(s.file, { force: true });
    logger.info(`Delivery store: removed ${s.name}: ${why}.`);
  } else if (!s.size) {
    fs.rmSync(s.file, { force: true });
    logger.info(`Delivery store: removed ${s.name}, an empty file.`);
  } else {
    const aside = damagedName(s.name);
    fs.renameSync(s.file, path.join(dir, aside));
    logger.warn(`Delivery store: kept ${s.name} aside as ${aside} for inspection (${why}).`);
  }
}

/** Whether `s` is a whole compaction or salvage: its header and the records it names all read. */
function replaces(s: Segment): number | undefined {
  const [first] = s.scan.records;
  const header = headerOf(first?.record);
  if (!header || first!.offset !== 0 || header.from === undefined) return undefined;
  const snapshotEnd = s.scan.records[header.snapshot]?.end;
  if (snapshotEnd === undefined || s.damage.some((d) => d.offset < snapshotEnd)) return undefined;
  return header.from;
}

export function openSegments(dir: string, fsync: boolean, logger: WebhooksLogger): OpenedSegments {
  fs.mkdirSync(dir, { recursive: true });
  const names = fs.readdirSync(dir);
  for (const n of names) if (n.endsWith('.wal.tmp')) fs.rmSync(path.join(dir, n), { force: true });
  const numbers = names
    .map((n) => SEGMENT.exec(n))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const next = (numbers.at(-1) ?? 0) + 1;
  let segments = numbers.map((n) => readSegment(dir, n));
  markTornTail(segments);
  const damage = segments.flatMap((s) => s.damage);
  for (const d of damage) logDamage(d, logger);

  // A file without one whole record has nothing to carry: it never replaces an older segment.
  for (const s of segments.filter((s) => !s.scan.records.length)) retire(dir, s, logger, 'no whole record in it');
  segments = segments.filter((s) => s.scan.records.length);
  // A crash between a compaction's rename and its removal of the segment it replaced.
  const from = segments.length > 1 ? replaces(segments.at(-1)!) : undefined;
  if (from !== undefined) {
    const newest = segments.at(-1)!;
    for (const s of segments.filter((s) => s.n <= from))
      retire(dir, s, logger, `${newest.name} holds its content (a compaction cut short by a stop)`);
    segments = segments.filter((s) => s.n > from);
  }

  const records = segments.flatMap((s) => s.scan.records.filter((r) => !isHeader(r.record)));
  const [only] = segments;
  if (segments.length === 1 && only!.scan.format === 'current' && !lost(only!).length) {
    const tail = only!.damage.find((d) => d.tornTail);
    if (tail) cutTail(only!.file, tail.offset, fsync);
    return { segment: only!.n, size: tail?.offset ?? only!.size, records: records.map((r) => r.record), damage };
  }

  // Carry every whole record into a fresh segment: converted from the legacy format, merged from
  // several segments, or away from damage. (With no segment at all, this writes the first one.)
  const carried = segments.flatMap((s) =>
    s.scan.records
      .filter((r) => !isHeader(r.record))
      .map((r) => (s.scan.format === 'current' ? s.data.subarray(r.offset, r.end) : encodeRecord(r.record))),
  );
  const header = { segment: next, from: segments.at(-1)?.n, snapshot: carried.length };
  const fresh = writeSegmentSync(dir, header, carried, fsync);
  const sources = segments.map((s) => `${s.name} (${s.scan.format} format)`).join(', ');
  const carriedLine = `Delivery store: carried ${carried.length} records of ${sources} into ${segmentName(next)}.`;
  if (segments.some((s) => lost(s).length)) logger.warn(carriedLine);
  else if (segments.length) logger.info(carriedLine);
  for (const s of segments) retire(dir, s, logger, `${segmentName(next)} holds every whole record of it`);
  if (fsync) syncDir(dir);
  return { segment: next, size: fresh.size, records: records.map((r) => r.record), damage };
}

function cutTail(file: string, at: number, fsync: boolean): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.ftruncateSync(fd, at);
    if (fsync) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
