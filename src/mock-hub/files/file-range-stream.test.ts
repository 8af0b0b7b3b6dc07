import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fileRangeStream } from './file-range-stream.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'file-range-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// larger than one 4 MiB piece, not a multiple of it
const bytes = Uint8Array.from({ length: 9 * 2 ** 20 + 12345 }, (_, i) => (i * 31 + (i >> 13)) % 256);
const file = path.join(dir, 'w.bin');
writeFileSync(file, bytes);
const read = async (s: ReadableStream<Uint8Array>) => Buffer.from(await new Response(s).arrayBuffer());
// Buffer.equals: vitest's element-wise toEqual takes seconds on megabytes
const same = (a: Buffer, b: Uint8Array) => a.length === b.length && a.equals(b);

describe('a file range as a stream', () => {
  it('yields exactly bytes [start, end] for any range', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(bytes.length - 1), fc.nat(bytes.length - 1), async (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        expect(same(await read(fileRangeStream(file, start, end)), bytes.subarray(start, end + 1))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('fails, naming the file, when the file is shorter than the range', async () => {
    const short = path.join(dir, 'short.bin');
    writeFileSync(short, bytes.subarray(0, 5 * 2 ** 20));
    truncateSync(short, 5 * 2 ** 20);
    await expect(read(fileRangeStream(short, 0, bytes.length - 1))).rejects.toThrow(/short\.bin ended at byte 5242880/);
  });

  it('stops reading when cancelled', async () => {
    const reader = fileRangeStream(file, 0, bytes.length - 1).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBe(4 * 2 ** 20);
    await reader.cancel();
    expect((await reader.read()).done).toBe(true);
  });
});
