import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal } from './journal.ts';
import { recordingLogger } from '../test-logger.ts';
import { encodeRecord, type JournalRecord } from './record-codec.ts';

const dirs: string[] = [];
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const rec = (i: number, payload?: string): JournalRecord =>
  payload === undefined
    ? { meta: { k: 'M', id: `d${i}` } }
    : { meta: { k: 'D', id: `d${i}` }, payload: Buffer.from(payload) };
const segments = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.wal'));

describe('journal', () => {
  it('reads back what was appended, payload bytes as written, after a reopen', async () => {
    const dir = tempDir();
    const { journal, records } = Journal.open(dir);
    expect(records).toEqual([]);
    const written = [rec(1, '{"a":"é"}'), rec(2), rec(3, 'x'.repeat(70_000))];
    await Promise.all(written.map((r) => journal.append(r)));
    await journal.close();
    const again = Journal.open(dir);
    expect(again.records).toEqual(written);
    expect(again.damage).toEqual([]);
    await again.journal.close();
  });

  it('concurrent appends all land, in the order they were made (group commit)', async () => {
    const dir = tempDir();
    const { journal } = Journal.open(dir);
    const written = Array.from({ length: 300 }, (_, i) => rec(i, `p${i}`));
    await Promise.all(written.map((r) => journal.append(r)));
    await journal.close();
    const { records, journal: j2 } = Journal.open(dir);
    expect(records).toEqual(written);
    await j2.close();
  });

  it('records appended in one turn share one write, and each is in the file once its append resolves', async () => {
    const dir = tempDir();
    const { journal } = Journal.open(dir);
    const file = path.join(dir, segments(dir)[0]!);
    const header = fs.statSync(file).size;
    const bytes = (...rs: JournalRecord[]) => rs.reduce((n, r) => n + encodeRecord(r).length, header);
    const writes = vi.spyOn(fs, 'write');
    const turn = [rec(1, 'a'), rec(2), rec(3, 'c')];
    await Promise.all(turn.map((r) => journal.append(r)));
    expect(writes).toHaveBeenCalledTimes(1);
    expect(fs.statSync(file).size).toBe(bytes(...turn));
    await journal.append(rec(4));
    expect(fs.statSync(file).size).toBe(bytes(...turn, rec(4)));
    writes.mockRestore();
    const atClose = journal.append(rec(5));
    await journal.close();
    await atClose;
    const again = Journal.open(dir);
    expect(again.records).toEqual([...turn, rec(4), rec(5)]);
    await again.journal.close();
  });

  it('a segment cut at any byte reads as the whole records before the cut; only the torn rest is dropped', async () => {
    const dir = tempDir();
    const written = [rec(1, 'first'), rec(2), rec(3, '{"third":true}'), rec(4, 'last')];
    const { journal } = Journal.open(dir);
    for (const r of written) await journal.append(r);
    await journal.close();
    const full = fs.readFileSync(path.join(dir, 'segment-00000001.wal'));
    const header = full.length - written.reduce((n, r) => n + encodeRecord(r).length, 0);
    const ends = written.reduce<number[]>((acc, r) => [...acc, (acc.at(-1) ?? header) + encodeRecord(r).length], []);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: full.length }), (cut) => {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(dir);
        fs.writeFileSync(path.join(dir, 'segment-00000001.wal'), full.subarray(0, cut));
        const { journal, records, damage } = Journal.open(dir, { logger: recordingLogger() });
        const whole = ends.filter((e) => e <= cut).length;
        const kept = cut < header ? 0 : (ends[whole - 1] ?? header);
        expect(records).toEqual(written.slice(0, whole));
        expect(damage.reduce((n, d) => n + d.bytes, 0)).toBe(cut - kept);
        // The cut is gone from the file, so the next append follows the last whole record; a segment cut
        // inside its header holds nothing whole: it is set aside (if not empty) and a fresh one started.
        if (cut >= header) expect(fs.statSync(path.join(dir, 'segment-00000001.wal')).size).toBe(kept);
        else expect(segments(dir)).toEqual(['segment-00000002.wal']);
        void journal.close();
      }),
      { numRuns: 60 },
    );
  });

  it('skips a record whose checksum fails (a flipped bit), keeps the ones after it, and sets the file aside', async () => {
    const dir = tempDir();
    const { journal } = Journal.open(dir);
    for (const r of [rec(1, 'kept'), rec(2, 'flipped'), rec(3, 'after')]) await journal.append(r);
    await journal.close();
    const file = path.join(dir, 'segment-00000001.wal');
    const data = fs.readFileSync(file);
    const at = data.length - encodeRecord(rec(3, 'after')).length - 2;
    data[at]! ^= 0x01;
    fs.writeFileSync(file, data);
    const logger = recordingLogger();
    const opened = Journal.open(dir, { logger });
    expect(opened.records).toEqual([rec(1, 'kept'), rec(3, 'after')]);
    expect(opened.damage).toMatchObject([
      { segment: 'segment-00000001.wal', bytes: encodeRecord(rec(2, 'flipped')).length, ids: ['d2'], tornTail: false },
    ]);
    expect(logger.lines.map((l) => l.message).join('\n')).toMatch(
      /segment-00000001\.wal: skipped \d+ damaged bytes at offset \d+ \(lost: the records there, delivery d2\)/,
    );
    // The good records are in a fresh segment; the damaged file is kept for inspection.
    expect(segments(dir)).toEqual(['segment-00000002.wal']);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('segment-00000001.wal.damaged-'))).toHaveLength(1);
    await opened.journal.append(rec(4));
    await opened.journal.close();
    const again = Journal.open(dir);
    expect(again.records).toEqual([rec(1, 'kept'), rec(3, 'after'), rec(4)]);
    expect(again.damage).toEqual([]);
    await again.journal.close();
  });

  it('compaction replaces the segment with the snapshot; appends made meanwhile follow it', async () => {
    const dir = tempDir();
    const { journal } = Journal.open(dir);
    for (let i = 0; i < 20; i++) await journal.append(rec(i, `v${i}`));
    const compacting = journal.compact(() => [rec(100, 'snapshot')]);
    const during = journal.append(rec(101));
    await Promise.all([compacting, during]);
    expect(segments(dir)).toEqual(['segment-00000002.wal']);
    await journal.append(rec(102));
    await journal.close();
    const { records, journal: j2 } = Journal.open(dir);
    expect(records).toEqual([rec(100, 'snapshot'), rec(101), rec(102)]);
    await j2.close();
  });

  it('on open, a compaction cut short (a .tmp) is discarded and an older segment the newer one replaced removed', async () => {
    const dir = tempDir();
    const header = (segment: number, from: number | undefined, snapshot: number) =>
      encodeRecord({ meta: { k: 'S', segment, from, snapshot } });
    fs.writeFileSync(
      path.join(dir, 'segment-00000001.wal'),
      Buffer.concat([header(1, undefined, 0), encodeRecord(rec(1, 'old'))]),
    );
    fs.writeFileSync(
      path.join(dir, 'segment-00000002.wal'),
      Buffer.concat([header(2, 1, 1), encodeRecord(rec(2, 'new'))]),
    );
    fs.writeFileSync(path.join(dir, 'segment-00000003.wal.tmp'), encodeRecord(rec(3, 'partial')).subarray(0, 9));
    const { records, journal } = Journal.open(dir, { logger: recordingLogger() });
    expect(records).toEqual([rec(2, 'new')]);
    expect(fs.readdirSync(dir)).toEqual(['segment-00000002.wal']);
    await journal.close();
  });

  it('a stop after carrying records out of a damaged segment, before setting it aside: the next open finishes the job', async () => {
    const dir = tempDir();
    const header = (segment: number, from: number | undefined, snapshot: number) =>
      encodeRecord({ meta: { k: 'S', segment, from, snapshot } });
    const damaged = Buffer.concat([header(1, undefined, 0), encodeRecord(rec(1, 'a')), encodeRecord(rec(2, 'b'))]);
    damaged[damaged.length - 3]! ^= 0xff;
    fs.writeFileSync(path.join(dir, 'segment-00000001.wal'), damaged);
    fs.writeFileSync(
      path.join(dir, 'segment-00000002.wal'),
      Buffer.concat([header(2, 1, 1), encodeRecord(rec(1, 'a'))]),
    );
    const logger = recordingLogger();
    const { records, journal } = Journal.open(dir, { logger });
    expect(records).toEqual([rec(1, 'a')]);
    // Replaced by the newer segment, but with damaged bytes in it: renamed, not deleted.
    expect(segments(dir)).toEqual(['segment-00000002.wal']);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('segment-00000001.wal.damaged-'))).toHaveLength(1);
    await journal.close();
  });
});
