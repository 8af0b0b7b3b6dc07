// The store after damage on disk: a flipped bit in a large segment, an empty newer segment file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { samplePayload } from '../sample-payload.ts';
import { recordingLogger } from '../test-logger.ts';
import { DeliveryStore } from './delivery-store.ts';
import { storeDirs } from './test-store-dir.ts';

const dirs = storeDirs();
afterEach(() => dirs.cleanup());

const segmentFiles = (dir: string) => fs.readdirSync(dir).filter((n) => /^segment-\d+\.wal$/.test(n));

/** A store of `count` finished deliveries of a hub-sized payload (about 1.1 KB on disk each). */
async function finishedStore(dir: string, count: number): Promise<void> {
  const store = DeliveryStore.open(dir, { fsync: false });
  const base = samplePayload();
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ ...base, repo: { ...base.repo, headSha: `sha-${i}` } });
    writes.push(store.add({ id: `d${i}`, route: 'r', headers: { 'content-type': 'application/json' }, body }));
    writes.push(store.update(`d${i}`, { state: 'done', attempts: [{ n: 1, startedAt: i, endedAt: i + 1 }] }));
  }
  await Promise.all(writes);
  await store.close();
}

function flipBit(file: string, at: number): void {
  const data = fs.readFileSync(file);
  data[at]! ^= 0x10;
  fs.writeFileSync(file, data);
}

describe('delivery store after damage', () => {
  it.each([0.1, 0.5])(
    'a bit flipped %s into a 5 MB segment costs at most the one delivery it hit, and the log names it',
    async (where) => {
      const dir = dirs.make();
      const count = 5400;
      await finishedStore(dir, count);
      const file = path.join(dir, segmentFiles(dir)[0]!);
      expect(fs.statSync(file).size).toBeGreaterThan(4.5e6);
      flipBit(file, Math.floor(fs.statSync(file).size * where));
      const logger = recordingLogger();
      const store = DeliveryStore.open(dir, { fsync: false, logger });
      const lost = Array.from({ length: count }, (_, i) => `d${i}`).filter((id) => store.get(id)?.state !== 'done');
      expect(lost.length).toBeLessThanOrEqual(1);
      // Nothing that was done goes back to queued to run again (beyond the one record hit).
      expect(store.list({ state: 'queued' }).length).toBeLessThanOrEqual(1);
      const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
      expect(warnings.join('\n')).toMatch(/skipped \d+ damaged bytes at offset \d+/);
      for (const id of lost) expect(warnings.join('\n')).toContain(id);
      await store.close();
      // What was kept is on disk: a second open reads it all, with nothing more to report.
      const quiet = recordingLogger();
      const again = DeliveryStore.open(dir, { fsync: false, logger: quiet });
      expect(again.size).toBe(store.size);
      expect(quiet.lines.filter((l) => l.level !== 'info')).toEqual([]);
      await again.close();
    },
  );

  it('an empty newer segment file beside a full older one: nothing is lost, the older one is read', async () => {
    const dir = dirs.make();
    await finishedStore(dir, 50);
    const [only] = segmentFiles(dir);
    const n = Number(/\d+/.exec(only!)![0]);
    fs.writeFileSync(path.join(dir, `segment-${String(n + 1).padStart(8, '0')}.wal`), '');
    const logger = recordingLogger();
    const store = DeliveryStore.open(dir, { fsync: false, logger });
    expect(store.size).toBe(50);
    expect(store.list({ state: 'done' }).length).toBe(50);
    await store.close();
    const again = DeliveryStore.open(dir, { fsync: false });
    expect(again.size).toBe(50);
    await again.close();
  });

  it('a garbage newer segment beside a live one with a torn tail: the tail is cut, the live one stays', async () => {
    const dir = dirs.make();
    await finishedStore(dir, 20);
    const [live] = segmentFiles(dir);
    const file = path.join(dir, live!);
    fs.writeFileSync(file, fs.readFileSync(file).subarray(0, -5));
    const n = Number(/\d+/.exec(live!)![0]);
    const garbage = `segment-${String(n + 3).padStart(8, '0')}.wal`;
    fs.writeFileSync(path.join(dir, garbage), 'not a journal');
    const logger = recordingLogger();
    const store = DeliveryStore.open(dir, { fsync: false, logger });
    // The last record (d19's outcome) was cut: d19 is back to its arrival state.
    expect(store.list({ state: 'done' }).length).toBe(19);
    expect(store.get('d19')?.state).toBe('queued');
    const log = logger.lines.map((l) => l.message).join('\n');
    expect(log).toMatch(
      new RegExp(
        `${live}: dropped its last \\d+ bytes \\(offset \\d+\\), a record cut short by a stop mid-write \\(delivery d19\\)`,
      ),
    );
    expect(log).toContain(`kept ${garbage} aside as ${garbage}.damaged-`);
    expect(segmentFiles(dir)).toEqual([live]);
    await store.close();
  });
});
