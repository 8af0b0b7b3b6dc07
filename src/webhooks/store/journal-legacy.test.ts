// A store written before records had a magic (fixtures/webhooks-store-legacy: written by that code,
// with what it read back in expected.json) opens with every delivery, and is converted on the way.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../test-logger.ts';
import { DeliveryStore } from './delivery-store.ts';
import { RECORD_MAGIC } from './record-codec.ts';
import { storeDirs } from './test-store-dir.ts';

const dirs = storeDirs();
afterEach(() => dirs.cleanup());

const FIXTURE = new URL('../../../fixtures/webhooks-store-legacy/', import.meta.url);
const LEGACY = 'segment-00000002.wal';
const expected = JSON.parse(fs.readFileSync(new URL('expected.json', FIXTURE), 'utf8')) as unknown[];
const asJson = (store: DeliveryStore) => JSON.parse(JSON.stringify([...store.all()])) as unknown[];

function legacyCopy(): string {
  const dir = dirs.make();
  fs.copyFileSync(new URL(LEGACY, FIXTURE), path.join(dir, LEGACY));
  return dir;
}

describe('a journal of the format before record magics', () => {
  it('opens with every delivery in its last state, converted into a segment of the current format', async () => {
    const dir = legacyCopy();
    const logger = recordingLogger();
    const store = DeliveryStore.open(dir, { fsync: false, logger });
    expect(asJson(store)).toEqual(expected);
    expect(logger.lines).toEqual([
      {
        level: 'info',
        message: `Delivery store: carried 9 records of ${LEGACY} (legacy format) into segment-00000003.wal.`,
      },
      {
        level: 'info',
        message: `Delivery store: removed ${LEGACY}: segment-00000003.wal holds every whole record of it.`,
      },
    ]);
    const files = fs.readdirSync(dir);
    expect(files).toEqual(['segment-00000003.wal']);
    expect(fs.readFileSync(path.join(dir, files[0]!)).subarray(0, 4)).toEqual(RECORD_MAGIC);
    // The converted store goes on as any other.
    await store.add({ id: 'after', route: 'sync', headers: {}, body: '{}' });
    await store.close();
    const again = DeliveryStore.open(dir, { fsync: false, logger: recordingLogger() });
    expect(asJson(again).slice(0, -1)).toEqual(expected);
    expect(again.get('after')?.seq).toBe(8);
    await again.close();
  });

  it('a flipped byte in it costs only the record it hit: reading goes on after it', async () => {
    const dir = legacyCopy();
    const file = path.join(dir, LEGACY);
    const data = fs.readFileSync(file);
    // Inside the payload of the third delivery's record (its body's headSha).
    const at = data.indexOf('legacy-2');
    data[at]! ^= 0x01;
    fs.writeFileSync(file, data);
    const logger = recordingLogger();
    const store = DeliveryStore.open(dir, { fsync: false, logger });
    const ids = [...store.all()].map((d) => d.id);
    expect(ids).toEqual(['legacy0', 'legacy1', 'legacy3', 'legacy4', 'legacy5', 'legacy6']);
    expect(asJson(store)).toEqual(expected.filter((d) => (d as { id: string }).id !== 'legacy2'));
    const log = logger.lines.map((l) => l.message).join('\n');
    expect(log).toMatch(
      /segment-00000002\.wal: skipped \d+ damaged bytes at offset \d+ \(lost: the records there, delivery legacy2\)/,
    );
    expect(fs.readdirSync(dir).filter((n) => n.startsWith(`${LEGACY}.damaged-`))).toHaveLength(1);
    await store.close();
  });
});
