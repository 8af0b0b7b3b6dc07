import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal, MAX_WRITES_IN_FLIGHT } from './journal.ts';
import { encodeRecord, type JournalRecord } from './record-codec.ts';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const rec = (i: number): JournalRecord => ({ meta: { k: 'D', id: `d${i}` }, payload: Buffer.from(`payload ${i}`) });
const turn = () => new Promise((r) => setImmediate(r));

interface HeldWrite {
  records: number;
  /** Writes the bytes where the journal asked and reports success. */
  finish(): void;
  /** Writes the first `bytes` of them (a write cut short) and reports `error`. */
  fail(bytes: number, error: Error): void;
  length: number;
}

/** Holds every write the journal starts until the test finishes or fails it, in any order. */
function holdWrites(): HeldWrite[] {
  const held: HeldWrite[] = [];
  type Callback = (err: Error | null, written?: number) => void;
  const fake = (fd: number, buffer: Buffer, offset: number, length: number, position: number, cb: Callback) => {
    const bytes = Buffer.from(buffer.subarray(offset, offset + length));
    let records = 0;
    for (let at = 0; at < bytes.length; records++) at += 12 + bytes.readUInt32LE(at + 4);
    held.push({
      records,
      length: bytes.length,
      finish: () => cb(null, fs.writeSync(fd, bytes, 0, bytes.length, position)),
      fail(n, error) {
        if (n > 0) fs.writeSync(fd, bytes, 0, n, position);
        cb(error);
      },
    });
  };
  vi.spyOn(fs, 'write').mockImplementation(fake as unknown as typeof fs.write);
  return held;
}

function openTemp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-overlap-'));
  dirs.push(dir);
  return { dir, ...Journal.open(dir) };
}

describe('journal: overlapping batch writes', () => {
  it('keeps up to the cap of writes in flight; what arrives meanwhile goes out as one batch when one ends', async () => {
    const held = holdWrites();
    const { journal } = openTemp();
    const acked: number[] = [];
    const appends: Promise<void>[] = [];
    const append = (i: number) => appends.push(journal.append(rec(i)).then(() => void acked.push(i)));
    for (let i = 0; i < MAX_WRITES_IN_FLIGHT; i++) {
      append(i);
      await turn();
    }
    append(10);
    append(11);
    await turn();
    expect(held.map((h) => h.records)).toEqual(Array(MAX_WRITES_IN_FLIGHT).fill(1));
    // A later batch on disk first is not acknowledged before the earlier ones.
    held[1]!.finish();
    await turn();
    expect(acked).toEqual([]);
    held[0]!.finish();
    await turn();
    expect(acked).toEqual([0, 1]);
    expect(held.at(-1)!.records).toBe(2);
    for (const h of held.slice(2)) h.finish();
    await Promise.all(appends);
    expect(acked).toEqual([0, 1, 2, 3, 10, 11]);
    vi.restoreAllMocks();
    await journal.close();
  });

  it('a write that fails among overlapping ones: nothing acknowledged is lost, nothing torn or later is read back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: MAX_WRITES_IN_FLIGHT }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            failAt: fc.option(fc.integer({ min: 0, max: n - 1 }), { nil: undefined }),
            order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
            written: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
        ),
        async ({ n, failAt, order, written }) => {
          const held = holdWrites();
          const { dir, journal } = openTemp();
          const acked: number[] = [];
          const appends: Promise<void>[] = [];
          for (let i = 0; i < n; i++) {
            const append = journal.append(rec(i));
            append.then(
              () => void acked.push(i),
              () => {},
            );
            appends.push(append);
            await turn();
          }
          expect(held).toHaveLength(n);
          const error = new Error('EIO: i/o error, write');
          for (const i of order) {
            if (i === failAt) held[i]!.fail(Math.floor(held[i]!.length * written), error);
            else held[i]!.finish();
            await turn();
          }
          const outcomes = await Promise.allSettled(appends);
          const kept = failAt ?? n;
          // Acknowledged in file order, exactly those before the failed write; the rest hear its error.
          expect(acked).toEqual([...Array(kept).keys()]);
          expect(outcomes.slice(kept).every((o) => o.status === 'rejected' && o.reason === error)).toBe(true);
          vi.restoreAllMocks();
          // The journal goes on: the next record follows the last acknowledged one.
          await journal.append(rec(99));
          await journal.close();
          const again = Journal.open(dir);
          expect(again.records).toEqual([...[...Array(kept).keys()].map(rec), rec(99)]);
          expect(again.damage).toEqual([]);
          await again.journal.close();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('when cutting back a failed write fails too, the cut is made before the next write (or that write fails)', async () => {
    const held = holdWrites();
    const { dir, journal } = openTemp();
    const file = path.join(dir, 'segment-00000001.wal');
    const header = fs.statSync(file).size;
    const first = journal.append(rec(1));
    await turn();
    held[0]!.finish();
    await first;
    // Longer than what follows it, so a tail of it left on disk would show as a torn record.
    const second = journal.append({ meta: { k: 'D', id: 'long' }, payload: Buffer.alloc(500, 1) });
    await turn();
    const truncate = vi.spyOn(fs, 'ftruncateSync').mockImplementationOnce(() => {
      throw new Error('EIO: i/o error, ftruncate');
    });
    held[1]!.fail(300, new Error('EIO: i/o error, write'));
    await expect(second).rejects.toThrow('write');
    expect(fs.statSync(file).size).toBe(header + encodeRecord(rec(1)).length + 300);
    truncate.mockRestore();
    vi.mocked(fs.write).mockRestore();
    await journal.append(rec(3));
    await journal.close();
    const again = Journal.open(dir);
    expect(again.records).toEqual([rec(1), rec(3)]);
    expect(again.damage).toEqual([]);
    await again.journal.close();
  });
});
