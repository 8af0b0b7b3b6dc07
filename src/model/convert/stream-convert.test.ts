import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSafetensors, SafetensorsError, type SafetensorsTensorInfo } from '../io/safetensors/read.ts';
import { safetensorsHeader } from '../io/safetensors/write.ts';
import { DTYPE_BYTES, type SafetensorsDtype } from '../io/safetensors/dtype.ts';
import {
  convertSafetensorsStream,
  streamChunks,
  type ConvertedTensor,
  type ConverterMemory,
} from './stream-convert.ts';
import { convertTensor, type TensorConversion } from './tensor-conversion.ts';

interface Spec {
  dtype: SafetensorsDtype;
  rows: number;
  k: number;
  conversion: TensorConversion | null;
  seed: number;
}

const CONVERSIONS: (TensorConversion | null)[] = [
  null,
  { kind: 'keep' },
  { kind: 'float16' },
  { kind: 'int8-rows' },
  { kind: 'blocks', bits: 4, block: 16 },
  { kind: 'blocks', bits: 4, block: 32 },
  { kind: 'blocks', bits: 8, block: 32 },
];

const specArb: fc.Arbitrary<Spec> = fc.record({
  dtype: fc.constantFrom<SafetensorsDtype>('F32', 'F16', 'BF16'),
  rows: fc.integer({ min: 0, max: 5 }),
  k: fc.integer({ min: 1, max: 40 }),
  conversion: fc.constantFrom(...CONVERSIONS),
  seed: fc.integer(),
});

/** a safetensors file of the specs' tensors: random bits (NaN, infinities and subnormals among them) */
function fileOf(specs: readonly Spec[]): Uint8Array {
  const head = safetensorsHeader(specs.map((s, i) => ({ name: `t${i}`, dtype: s.dtype, shape: [s.rows, s.k] })));
  const sizes = specs.map((s) => s.rows * s.k * DTYPE_BYTES[s.dtype]);
  const out = new Uint8Array(head.length + sizes.reduce((a, b) => a + b, 0));
  out.set(head);
  let o = head.length;
  specs.forEach((s, i) => {
    let x = s.seed | 1;
    for (let j = 0; j < sizes[i]!; j++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[o + j] = x & 255;
    }
    o += sizes[i]!;
  });
  return out;
}

const planOf = (specs: readonly Spec[]) => (t: SafetensorsTensorInfo) => specs[Number(t.name.slice(1))]!.conversion;

/** the file cut at the given offsets */
function* cut(bytes: Uint8Array, at: readonly number[]): Generator<Uint8Array> {
  const points = [...new Set([0, ...at.map((a) => a % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
  for (let i = 1; i < points.length; i++) yield bytes.slice(points[i - 1], points[i]);
}

async function* asAsync(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function streamed(
  bytes: Uint8Array,
  chunks: Iterable<Uint8Array>,
  specs: readonly Spec[],
  memory?: ConverterMemory,
) {
  const out: ConvertedTensor[] = [];
  for await (const t of convertSafetensorsStream(asAsync(chunks), {
    file: 'f.safetensors',
    size: bytes.length,
    conversionFor: planOf(specs),
    memory,
  }))
    out.push(t);
  return out;
}

/** the whole file in memory, each planned tensor converted from it, in file order */
function whole(bytes: Uint8Array, specs: readonly Spec[]) {
  const plan = planOf(specs);
  return [...parseSafetensors(bytes, 'f.safetensors').tensors.values()]
    .sort((a, b) => a.offset - b.offset)
    .flatMap((e) => {
      const c = plan(e);
      return c ? [{ name: e.name, conversion: c, parts: convertTensor(e, e.bytes.slice(), c) }] : [];
    });
}

describe('a safetensors file converted as it streams in', () => {
  it('gives each tensor bit for bit as converting the whole file does, wherever the chunks end, holding one tensor and one chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(specArb, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (specs, at) => {
          const bytes = fileOf(specs);
          const chunks = [...cut(bytes, at)];
          const memory = { held: 0, peak: 0 };
          const got = await streamed(bytes, chunks, specs, memory);
          expect(got).toEqual(whole(bytes, specs));
          const headBytes = bytes.length - specs.reduce((s, x) => s + x.rows * x.k * DTYPE_BYTES[x.dtype], 0);
          const largestPlanned = Math.max(
            0,
            ...specs.map((s) => (s.conversion ? s.rows * s.k * DTYPE_BYTES[s.dtype] : 0)),
          );
          expect(memory.peak).toBeLessThanOrEqual(
            headBytes + largestPlanned + Math.max(...chunks.map((c) => c.length)),
          );
          expect(memory.held).toBeLessThanOrEqual(headBytes);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('yields a tensor as soon as its last byte arrives, before the rest of the file', async () => {
    const specs: Spec[] = [
      { dtype: 'BF16', rows: 2, k: 8, conversion: { kind: 'float16' }, seed: 1 },
      { dtype: 'F32', rows: 3, k: 32, conversion: { kind: 'blocks', bits: 4, block: 32 }, seed: 2 },
    ];
    const bytes = fileOf(specs);
    const firstEnd = bytes.length - 3 * 32 * 4;
    let delivered = 0;
    async function* counted() {
      for (const c of cut(bytes, [firstEnd - 5, firstEnd, firstEnd + 100])) {
        delivered += c.length;
        yield c;
      }
    }
    const seen: [string, number][] = [];
    for await (const t of convertSafetensorsStream(counted(), {
      file: 'f',
      size: bytes.length,
      conversionFor: planOf(specs),
    }))
      seen.push([t.name, delivered]);
    expect(seen).toEqual([
      ['t0', firstEnd],
      ['t1', bytes.length],
    ]);
  });

  it('never gathers a tensor the plan skips', async () => {
    const specs: Spec[] = [
      { dtype: 'F32', rows: 5, k: 40, conversion: null, seed: 3 },
      { dtype: 'F16', rows: 1, k: 4, conversion: { kind: 'keep' }, seed: 4 },
    ];
    const bytes = fileOf(specs);
    const head = bytes.length - 5 * 40 * 4 - 8;
    const memory = { held: 0, peak: 0 };
    const every16 = Array.from({ length: 60 }, (_, i) => head + 16 * i);
    const got = await streamed(bytes, cut(bytes, every16), specs, memory);
    expect(got.map((t) => t.name)).toEqual(['t1']);
    // the header, the kept tensor's 8 bytes and one 16-byte chunk: none of the skipped tensor's 800
    expect(memory.peak).toBeLessThanOrEqual(head + 8 + 16);
  });

  it('reads a ReadableStream chunk by chunk', async () => {
    const specs: Spec[] = [{ dtype: 'BF16', rows: 2, k: 3, conversion: { kind: 'float16' }, seed: 5 }];
    const bytes = fileOf(specs);
    const chunks = [...cut(bytes, [7, 30])];
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const x of chunks) c.enqueue(x);
        c.close();
      },
    });
    const got: ConvertedTensor[] = [];
    for await (const t of convertSafetensorsStream(streamChunks(stream), {
      file: 'f',
      size: bytes.length,
      conversionFor: planOf(specs),
    }))
      got.push(t);
    expect(got).toEqual(whole(bytes, specs));
  });

  it('refuses a stream that ends early or runs past the file, naming the file', async () => {
    const specs: Spec[] = [{ dtype: 'F32', rows: 2, k: 4, conversion: { kind: 'keep' }, seed: 6 }];
    const bytes = fileOf(specs);
    const run = (chunks: Uint8Array[], size = bytes.length) =>
      (async () => {
        for await (const t of convertSafetensorsStream(asAsync(chunks), {
          file: 'shard-2.safetensors',
          size,
          conversionFor: planOf(specs),
        }))
          void t;
      })();
    await expect(run([bytes.slice(0, bytes.length - 1)])).rejects.toThrow(
      new SafetensorsError(
        `shard-2.safetensors: the stream ended after ${bytes.length - 1} of the file's ${bytes.length} bytes`,
      ),
    );
    await expect(run([bytes.slice(0, 5)])).rejects.toThrow(/shard-2.safetensors: the stream ended after 5 of/);
    await expect(run([bytes, new Uint8Array(3)])).rejects.toThrow(/shard-2.safetensors: the stream holds more than/);
  });

  it('cancels the stream it reads when the conversion stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(new Uint8Array([255, 255, 255, 255, 255, 255, 255, 255])),
      cancel: () => {
        cancelled = true;
      },
    });
    const run = async () => {
      for await (const t of convertSafetensorsStream(streamChunks(stream), {
        file: 'big.safetensors',
        size: 1000,
        conversionFor: () => null,
      }))
        void t;
    };
    await expect(run()).rejects.toThrow(/big.safetensors: header of \d+ bytes exceeds/);
    expect(cancelled).toBe(true);
  });
});
