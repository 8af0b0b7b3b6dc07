import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRecord, arrivalRecord, deliveryStates, progressRecord, type Delivery } from './delivery-record.ts';
import { encodeRecord } from './record-codec.ts';
import { scanSegment } from './segment-scan.ts';

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const attempt = fc.record(
  { n: fc.nat(), startedAt: fc.nat(), endedAt: fc.nat(), error: fc.string() },
  { requiredKeys: ['n', 'startedAt'] },
);
const progress = fc.record({
  state: fc.constantFrom(...deliveryStates),
  attempts: fc.array(attempt, { maxLength: 4 }),
  budgetFrom: fc.nat(),
  result: maybe(fc.jsonValue()),
  error: maybe(fc.string()),
  nextAttemptAt: maybe(fc.nat()),
  duplicates: fc.nat(),
  replays: fc.nat(),
});
const keys = ['state', 'attempts', 'budgetFrom', 'result', 'error', 'nextAttemptAt', 'duplicates', 'replays'] as const;

describe('delivery records', () => {
  it('a change record writes the bytes earlier versions wrote: the defined fields, in this order, and nothing else', () => {
    fc.assert(
      fc.property(fc.string(), progress, (id, p) => {
        // What earlier versions wrote: `{ k: 'M', id, ...progressOf(p) }`, progressOf keeping defined fields in order.
        const before: Record<string, unknown> = { k: 'M', id };
        for (const k of keys) if (p[k] !== undefined) before[k] = p[k];
        expect(encodeRecord(progressRecord(id, p)).equals(encodeRecord({ meta: before }))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('an arrival and any change read back from disk give the delivery with that change (a cleared field cleared)', () => {
    fc.assert(
      fc.property(progress, progress, fc.string(), (first, change, body) => {
        const d: Delivery = { id: 'd1', seq: 1, route: 'r', receivedAt: 5, headers: { a: 'b' }, body, ...first };
        const bytes = Buffer.concat([encodeRecord(arrivalRecord(d)), encodeRecord(progressRecord('d1', change))]);
        const { records, damaged } = scanSegment(bytes);
        expect(damaged).toEqual([]);
        const read = new Map<string, Delivery>();
        for (const r of records) applyRecord(read, r.record);
        const got = read.get('d1')!;
        expect(got.body).toBe(body);
        expect({ id: got.id, seq: got.seq, route: got.route, receivedAt: got.receivedAt }).toEqual({
          id: 'd1',
          seq: 1,
          route: 'r',
          receivedAt: 5,
        });
        // As JSON keeps them: an undefined field is absent, so the field is cleared.
        const expected = JSON.parse(JSON.stringify(change)) as Record<string, unknown>;
        for (const k of keys) expect(got[k]).toEqual(expected[k]);
      }),
      { numRuns: 200 },
    );
  });
});
