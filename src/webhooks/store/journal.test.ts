import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal } from './journal.ts';
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
    expect(again.droppedBytes).toBe(0);
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

  it('a lazy append is in the file once it resolves: with the next eager write, alone, or at close', async () => {
    const dir = tempDir();
    const { journal } = Journal.open(dir);
    const file = path.join(dir, segments(dir)[0]!);
    const bytes = (...rs: JournalRecord[]) => rs.reduce((n, r) => n + encodeRecord(r).length, 0);
    const written = [rec(1, 'lazy'), rec(2, 'eager'), rec(3), rec(4)];
    const lazy = journal.append(written[0]!, { lazy: true });
    await journal.append(written[1]!);
    await lazy;
    expect(fs.statSync(file).size).toBe(bytes(written[0]!, written[1]!));
    await journal.append(written[2]!, { lazy: true });
    expect(fs.statSync(file).size).toBe(bytes(...written.slice(0, 3)));
    const atClose = journal.append(written[3]!, { lazy: true });
    await journal.close();
    await atClose;
    const again = Journal.open(dir);
    expect(again.records).toEqual(written);
    await again.journal.close();
  });

  it('a lazy append goes out without waiting for a timer when no write is in flight, and after the one that is', async () => {
    // With timers frozen, the LAZY_COMMIT_MS fallback never fires: what resolves did not wait for it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const dir = tempDir();
      const { journal } = Journal.open(dir);
      await journal.append(rec(1), { lazy: true });
      const eager = journal.append(rec(2, 'eager'));
      // Appended while the eager record's write is in flight: it waits for that write, then goes out.
      await new Promise((r) => setImmediate(r));
      const behind = journal.append(rec(3), { lazy: true });
      await Promise.all([eager, behind]);
      await journal.close();
      const again = Journal.open(dir);
      expect(again.records).toEqual([rec(1), rec(2, 'eager'), rec(3)]);
      await again.journal.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a segment cut at any byte reads as the whole records before the cut; the torn rest is dropped', async () => {
    const dir = tempDir();
    const written = [rec(1, 'first'), rec(2), rec(3, '{"third":true}'), rec(4, 'last')];
    const full = Buffer.concat(written.map(encodeRecord));
    const ends = written.reduce<number[]>((acc, r) => [...acc, (acc.at(-1) ?? 0) + encodeRecord(r).length], []);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: full.length }), (cut) => {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(dir);
        fs.writeFileSync(path.join(dir, 'segment-00000001.wal'), full.subarray(0, cut));
        const { journal, records, droppedBytes } = Journal.open(dir);
        const whole = ends.filter((e) => e <= cut).length;
        expect(records).toEqual(written.slice(0, whole));
        expect(droppedBytes).toBe(cut - (ends[whole - 1] ?? 0));
        // The cut is gone from the file, so the next append follows the last whole record.
        expect(fs.statSync(path.join(dir, 'segment-00000001.wal')).size).toBe(ends[whole - 1] ?? 0);
        void journal.close();
      }),
      { numRuns: 60 },
    );
  });

  it('stops at a record whose checksum fails (a flipped bit), keeping what came before', async () => {
    const dir = tempDir();
    const a = encodeRecord(rec(1, 'kept'));
    const b = encodeRecord(rec(2, 'flipped'));
    b.writeUInt8(b.readUInt8(b.length - 2) ^ 0x01, b.length - 2);
    fs.writeFileSync(path.join(dir, 'segment-00000001.wal'), Buffer.concat([a, b]));
    const { records, droppedBytes, journal } = Journal.open(dir);
    expect(records).toEqual([rec(1, 'kept')]);
    expect(droppedBytes).toBe(b.length);
    await journal.close();
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

  it('on open, a compaction cut short (a .tmp) is discarded and a left-over older segment removed', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'segment-00000001.wal'), encodeRecord(rec(1, 'old')));
    fs.writeFileSync(path.join(dir, 'segment-00000002.wal'), encodeRecord(rec(2, 'new')));
    fs.writeFileSync(path.join(dir, 'segment-00000003.wal.tmp'), encodeRecord(rec(3, 'partial')).subarray(0, 9));
    const { records, journal } = Journal.open(dir);
    expect(records).toEqual([rec(2, 'new')]);
    expect(fs.readdirSync(dir)).toEqual(['segment-00000002.wal']);
    await journal.close();
  });
});
