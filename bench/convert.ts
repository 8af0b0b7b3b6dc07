// `npm run bench -- convert`: a bfloat16 safetensors file of the real model's Linear shapes streamed
// through the converter in 8 MiB pieces (as Range chunks hand it out), per target precision: the
// throughput, and the most the converter held against one tensor plus one piece. Then what the
// browser cache's chunk checksum costs per GiB over the same bytes (src/model/cache/chunk-sum.ts),
// beside SHA-256 through crypto.subtle per 64 MiB chunk, the alternative it was chosen over.
import { webcrypto } from 'node:crypto';
import { ChunkSum } from '../src/model/cache/chunk-sum.ts';
import { convertSafetensorsStream } from '../src/model/convert/stream-convert.ts';
import type { TensorConversion } from '../src/model/convert/tensor-conversion.ts';
import { f32ToBf16 } from '../src/model/io/safetensors/dtype.ts';
import { safetensorsHeader } from '../src/model/io/safetensors/write.ts';
import { fillUniform, prng } from '../src/model/models/consisid/random-weights.ts';
import { figure, median, type Figure } from './figure.ts';

/** ConsisID's attention (3072 x 3072) and feed-forward (12288 x 3072, 3072 x 12288) weights */
const SHAPES: [number, number][] = [
  [3072, 3072],
  [3072, 3072],
  [12288, 3072],
  [3072, 12288],
];
const PIECE = 8 * 2 ** 20;
const RUNS = 3;
const CONVERSIONS: [string, TensorConversion][] = [
  ['float16', { kind: 'float16' }],
  ['int8', { kind: 'int8-rows' }],
  ['int4', { kind: 'blocks', bits: 4, block: 32 }],
];

function bf16File(): Uint8Array {
  const head = safetensorsHeader(SHAPES.map((shape, i) => ({ name: `w${i}`, dtype: 'bfloat16' as const, shape })));
  const parts = SHAPES.map(([r, k]) => {
    const w = fillUniform(new Float32Array(r * k), prng(r + k), 1 / Math.sqrt(k));
    return new Uint8Array(f32ToBf16(w).buffer);
  });
  const out = new Uint8Array(head.length + parts.reduce((s, p) => s + p.length, 0));
  out.set(head);
  let o = head.length;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export default async function run(): Promise<Figure[]> {
  const file = bf16File();
  const largest = Math.max(...SHAPES.map(([r, k]) => r * k * 2));
  const out: Figure[] = [];
  for (const [name, conversion] of CONVERSIONS) {
    const rates: number[] = [];
    let peak = 0;
    for (let run = 0; run < RUNS; run++) {
      const memory = { held: 0, peak: 0 };
      async function* pieces() {
        for (let o = 0; o < file.length; o += PIECE) yield file.subarray(o, o + PIECE);
      }
      const t0 = performance.now();
      for await (const t of convertSafetensorsStream(pieces(), {
        file: 'bench.safetensors',
        size: file.length,
        conversionFor: () => conversion,
        memory,
      }))
        void t;
      rates.push(file.length / 2 ** 20 / ((performance.now() - t0) / 1000));
      peak = Math.max(peak, memory.peak);
    }
    out.push(figure('convert', `bfloat16 -> ${name}, median of ${RUNS}`, median(rates), 'MiB/s'));
    out.push(
      figure(
        'convert',
        `bfloat16 -> ${name}, converter peak over one tensor + one piece`,
        peak / (largest + PIECE),
        'x',
        {
          op: '<=',
          value: 1.01,
        },
      ),
    );
  }
  out.push(await checksumCost(file), await sha256Cost(file));
  return out;
}

/** seconds per GiB of `pass` over `bytes`, median of RUNS */
async function secondsPerGiB(bytes: Uint8Array, pass: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    await pass();
    times.push((performance.now() - t0) / 1000);
  }
  return median(times) / (bytes.length / 2 ** 30);
}

async function checksumCost(file: Uint8Array): Promise<Figure> {
  const s = await secondsPerGiB(file, () => {
    const sum = new ChunkSum();
    for (let o = 0; o < file.length; o += PIECE) sum.update(file.subarray(o, o + PIECE));
    return sum.digest();
  });
  return figure('convert', `chunk checksum (${PIECE / 2 ** 20} MiB pieces), median of ${RUNS}`, s, 's/GiB');
}

async function sha256Cost(file: Uint8Array): Promise<Figure> {
  const CHUNK = 64 * 2 ** 20;
  const s = await secondsPerGiB(file, async () => {
    for (let o = 0; o < file.length; o += CHUNK) await webcrypto.subtle.digest('SHA-256', file.subarray(o, o + CHUNK));
  });
  return figure('convert', `crypto.subtle SHA-256 (64 MiB chunks, for comparison), median of ${RUNS}`, s, 's/GiB');
}
