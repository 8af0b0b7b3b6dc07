// The store survives damage by design: any single flipped byte, any truncation, any extra empty or
// garbage segment file. It opens, every delivery whose records the damage did not touch is there in its
// last state, the ones it touched are as their untouched records leave them, and the log says what
// was dropped. A second open finds nothing more to report.
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingLogger } from '../test-logger.ts';
import { applyRecord, type Delivery } from './delivery-record.ts';
import { DeliveryStore } from './delivery-store.ts';
import { RECORD_MAGIC } from './record-codec.ts';
import { scanSegment } from './segment-scan.ts';
import { storeDirs } from './test-store-dir.ts';

const dirs = storeDirs();
afterAll(() => dirs.cleanup());

const SEGMENT = 'segment-00000002.wal';
let base: Buffer;

/** A receiver's life in small: arrivals, starts, retries, results, a compaction, duplicates, a replay. */
async function writeBase(dir: string): Promise<void> {
  let t = 1_700_000_000_000;
  const store = DeliveryStore.open(dir, { fsync: false, now: () => (t += 1000) });
  const body = (i: number) => JSON.stringify({ event: { action: 'update', scope: 'repo' }, repo: { name: `u/r${i}` } });
  for (let i = 0; i < 12; i++)
    await store.add({ id: `d${i}`, route: i % 3 ? 'a' : 'b', headers: { h: `${i}` }, body: body(i) }, i % 4 === 0);
  for (let i = 0; i < 12; i += 2)
    await store.update(`d${i}`, { state: 'done', attempts: [{ n: 1, startedAt: t, endedAt: t + 5 }], result: { i } });
  await store.update('d3', {
    state: 'failed',
    attempts: [{ n: 1, startedAt: t, error: 'x' }],
    error: 'x',
    nextAttemptAt: t + 9,
  });
  await store.compact();
  for (let i = 12; i < 20; i++) await store.add({ id: `d${i}`, route: 'a', headers: {}, body: body(i) });
  await store.update('d3', {
    state: 'done',
    attempts: [{ n: 2, startedAt: t }],
    result: 'ok',
    error: undefined,
    nextAttemptAt: undefined,
  });
  await store.update('d2', { duplicates: 1 });
  await store.update('d13', { state: 'dead', attempts: [{ n: 1, startedAt: t, error: 'y' }], error: 'y' });
  await store.update('d4', { state: 'running', replays: 1 });
  await store.close();
}

const asJson = (ds: Iterable<Delivery>) => JSON.parse(JSON.stringify([...ds])) as unknown[];

/** What reading the base's records, less those the damage touched, gives. */
function expectedWithout(touched: (r: { offset: number; end: number }) => boolean): unknown[] {
  const map = new Map<string, Delivery>();
  for (const r of scanSegment(base).records) if (!touched(r)) applyRecord(map, r.record);
  return asJson([...map.values()].sort((a, b) => a.seq - b.seq));
}

interface Opened {
  deliveries: unknown[];
  log: string;
  files: string[];
}

function openDamaged(files: Record<string, Buffer>): Opened {
  const dir = dirs.make();
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
  const logger = recordingLogger();
  const store = DeliveryStore.open(dir, { fsync: false, logger });
  const deliveries = asJson(store.all());
  void store.close();
  // Whatever the first open kept is whole on disk: a second open reads the same, with nothing to report.
  const quiet = recordingLogger();
  const again = DeliveryStore.open(dir, { fsync: false, logger: quiet });
  expect(asJson(again.all())).toEqual(deliveries);
  expect(quiet.lines.filter((l) => l.level !== 'info')).toEqual([]);
  void again.close();
  const opened = { deliveries, log: logger.lines.map((l) => l.message).join('\n'), files: fs.readdirSync(dir) };
  fs.rmSync(dir, { recursive: true, force: true });
  return opened;
}

describe('journal property: damage costs only what it touched', () => {
  beforeAll(async () => {
    const dir = dirs.make();
    await writeBase(dir);
    expect(fs.readdirSync(dir)).toEqual([SEGMENT]);
    base = fs.readFileSync(path.join(dir, SEGMENT));
  });

  it('any single flipped byte: only the record it hit is lost, and the log gives its offset, size and delivery', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (p, mask) => {
        const at = p % base.length;
        const data = Buffer.from(base);
        data[at]! ^= mask;
        const hit = scanSegment(base).records.find((r) => r.offset <= at && at < r.end)!;
        const opened = openDamaged({ [SEGMENT]: data });
        expect(opened.deliveries).toEqual(expectedWithout((r) => r === hit || r.offset === hit.offset));
        const bytes = hit.end - hit.offset;
        expect(opened.log).toContain(
          hit.end === base.length
            ? `dropped its last ${bytes} bytes (offset ${hit.offset})`
            : `skipped ${bytes} damaged bytes at offset ${hit.offset}`,
        );
        // The id is readable unless the flipped byte is in the first bytes of the record's meta.
        const id = hit.record.meta.id;
        if (typeof id === 'string' && at >= hit.offset + 40) expect(opened.log).toContain(`delivery ${id}`);
      }),
      { numRuns: 250 },
    );
  });

  it('any truncation: the whole records before the cut are kept, the torn rest is reported', () => {
    fc.assert(
      fc.property(fc.nat(), (p) => {
        const cut = p % base.length;
        const opened = openDamaged({ [SEGMENT]: base.subarray(0, cut) });
        expect(opened.deliveries).toEqual(expectedWithout((r) => r.end > cut));
        const lastEnd = Math.max(
          0,
          ...scanSegment(base)
            .records.filter((r) => r.end <= cut)
            .map((r) => r.end),
        );
        if (cut > lastEnd)
          expect(opened.log).toMatch(new RegExp(`${cut - lastEnd} (damaged )?bytes.{0,4}offset ${lastEnd}`));
      }),
      { numRuns: 150 },
    );
  });

  it('an extra empty or garbage segment file, older or newer: every delivery as it was, the extra file reported', () => {
    const garbage = fc.oneof(
      fc.constant(new Uint8Array()),
      fc.uint8Array({ minLength: 1, maxLength: 400 }),
      // Garbage that holds the record magic, so a reader looking for the next record finds false starts.
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.concat([Buffer.from(b), RECORD_MAGIC, Buffer.from(b)])),
    );
    fc.assert(
      fc.property(fc.constantFrom(0, 1, 3, 4, 99_999_999), garbage, (n, bytes) => {
        const extra = `segment-${String(n).padStart(8, '0')}.wal`;
        const opened = openDamaged({ [SEGMENT]: base, [extra]: Buffer.from(bytes) });
        expect(opened.deliveries).toEqual(expectedWithout(() => false));
        expect(opened.log).toContain(extra);
        // The good segment is never removed for it; the extra file is set aside unless it was empty.
        expect(opened.files).toContain(SEGMENT);
        expect(opened.files.filter((f) => f.startsWith(`${extra}.damaged-`))).toHaveLength(bytes.length ? 1 : 0);
      }),
      { numRuns: 80 },
    );
  });
});
