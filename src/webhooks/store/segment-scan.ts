// Reads every whole record of a segment's bytes, skipping what is damaged: a record that fails its
// check costs its own bytes, and reading goes on at the next record that passes (found by its magic,
// or for the format before the magic, by trying each place a record's meta could start). What is
// skipped is returned with the delivery ids still readable in it, so the loss can be reported.
import { legacyRecordAt, RECORD_MAGIC, recordAt, type JournalRecord, type RecordAt } from './record-codec.ts';

export interface ScannedRecord {
  record: JournalRecord;
  offset: number;
  end: number;
}

export interface DamagedRange {
  offset: number;
  bytes: number;
  /** Delivery ids readable at the start of the records in the range (none if the damage hit them). */
  ids: string[];
}

export interface ScannedSegment {
  /** `legacy`: written before records had a magic; `empty`: no bytes at all. */
  format: 'current' | 'legacy' | 'empty';
  records: ScannedRecord[];
  damaged: DamagedRange[];
}

type ReadAt = (data: Buffer, at: number) => RecordAt | undefined;
/** The next place at or after `from` where a record could start, or -1. */
type NextCandidate = (data: Buffer, from: number) => number;

const nextMagic: NextCandidate = (data, from) => data.indexOf(RECORD_MAGIC, from);
// A legacy record's meta (a JSON object) starts 12 bytes after the record.
const nextLegacy: NextCandidate = (data, from) => {
  const brace = data.indexOf(0x7b, from + 12);
  return brace === -1 ? -1 : brace - 12;
};

export function scanSegment(data: Buffer): ScannedSegment {
  if (!data.length) return { format: 'empty', records: [], damaged: [] };
  // Ids are looked for only in the format the segment turns out to have.
  const named = (format: 'current' | 'legacy', { records, damaged }: ReturnType<typeof scan>, header: number) => ({
    format,
    records,
    damaged: damaged.map(({ offset, bytes, starts }) => ({
      offset,
      bytes,
      ids: idsAt(data, starts, offset + bytes, header),
    })),
  });
  const current = scan(data, recordAt, nextMagic);
  if (current.records.length) return named('current', current, 12);
  const legacy = scan(data, legacyRecordAt, nextLegacy);
  if (legacy.records.length) return named('legacy', legacy, 8);
  return named('current', current, 12);
}

function scan(data: Buffer, readAt: ReadAt, next: NextCandidate) {
  const records: ScannedRecord[] = [];
  const damaged: { offset: number; bytes: number; starts: number[] }[] = [];
  let at = 0;
  let found = readAt(data, 0);
  while (at < data.length) {
    if (found) {
      records.push({ record: found.record, offset: at, end: found.end });
      at = found.end;
      found = readAt(data, at);
      continue;
    }
    // Damaged from here. Each magic that fails its check starts a damaged record (a legacy candidate,
    // any `{`, does not: its ids would be ones from payloads).
    const starts = [at];
    let candidate = next(data, at + 1);
    while (candidate !== -1 && !(found = readAt(data, candidate))) {
      if (next === nextMagic) starts.push(candidate);
      candidate = next(data, candidate + 1);
    }
    const end = candidate === -1 ? data.length : candidate;
    damaged.push({ offset: at, bytes: end - at, starts });
    at = end;
  }
  return { records, damaged };
}

// `{"id":"…"` opens an arrival's meta, `{"k":"M","id":"…"` a change's.
const ID_AT_META_START = /^\{(?:"k":"[A-Z]",)?"id":"([^"\\]{1,200})"/;

/**
 * Ids readable where records of a damaged range start, and where their (maybe intact) lengths lead,
 * so records whose magic was hit are named too. `header`: bytes before a record's body (12, or 8 in
 * the legacy format, whose length comes first).
 */
function idsAt(data: Buffer, starts: number[], end: number, header: number): string[] {
  const ids = new Set<string>();
  const seen = new Set<number>();
  for (let at of starts) {
    while (at + header + 4 <= end && !seen.has(at) && seen.size < 1000) {
      seen.add(at);
      const meta = at + header + 4;
      const id = ID_AT_META_START.exec(data.toString('latin1', meta, Math.min(meta + 240, end)))?.[1];
      if (id) ids.add(id);
      at += header + data.readUInt32LE(at + header - 8);
    }
  }
  return [...ids];
}
