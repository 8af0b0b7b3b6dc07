import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeBlob } from './range-blob.ts';

/** a reader over `bytes` that hands out pieces of at most `piece` bytes, as a download would */
const readerOf =
  (bytes: Uint8Array, piece: number) =>
  (start: number, end: number): ReadableStream<Uint8Array> => {
    let pos = start;
    return new ReadableStream({
      pull(ctl) {
        if (pos >= end) return ctl.close();
        const to = Math.min(end, pos + piece);
        ctl.enqueue(bytes.slice(pos, to));
        pos = to;
      },
    });
  };

const bounds = fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined });

describe('RangeBlob', () => {
  it('any slice of any slice has the bytes, size and stream a Blob of the same bytes would give', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 32 }),
        fc.integer({ min: 1, max: 7 }),
        bounds,
        bounds,
        bounds,
        bounds,
        async (bytes, piece, a, b, c, d) => {
          const ours = new RangeBlob(readerOf(bytes, piece), 0, bytes.length).slice(a, b).slice(c, d);
          const native = new Blob([bytes]).slice(a, b).slice(c, d);
          expect(ours.size).toBe(native.size);
          expect(new Uint8Array(await ours.arrayBuffer())).toEqual(new Uint8Array(await native.arrayBuffer()));
          expect(new Uint8Array(await new Response(ours.stream()).arrayBuffer())).toEqual(
            new Uint8Array(await native.arrayBuffer()),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the first error a read of it or of any slice met, for the reader that only learns that a read failed', async () => {
    const bytes = Uint8Array.from({ length: 100 }, (_, i) => i);
    const reads: [number, number][] = [];
    const blob = new RangeBlob(
      (start, end) => {
        reads.push([start, end]);
        if (start >= 50)
          return new ReadableStream({ pull: (ctl) => ctl.error(new Error(`bytes ${start}-${end}: HTTP 500`)) });
        return readerOf(bytes, 8)(start, end);
      },
      0,
      bytes.length,
    );
    expect(new Uint8Array(await blob.slice(10, 20).arrayBuffer())).toEqual(bytes.subarray(10, 20));
    expect(blob.failure).toBeUndefined();
    await expect(blob.slice(60, 70).arrayBuffer()).rejects.toThrow('bytes 60-70: HTTP 500');
    await expect(blob.slice(80).arrayBuffer()).rejects.toThrow('bytes 80-100: HTTP 500');
    expect((blob.failure as Error).message).toBe('bytes 60-70: HTTP 500');
    expect(reads).toEqual([
      [10, 20],
      [60, 70],
      [80, 100],
    ]);
  });
});
