import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bf16ToF32, f16ToF32, f32ToBf16 } from '../io/safetensors/dtype.ts';
import { convertTensor, convertedLayout, type TensorConversion } from './tensor-conversion.ts';

const bytes = (a: Uint16Array | Float32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const halves = (b: Uint8Array) => new Uint16Array(b.slice().buffer);

/** float16 bits of bfloat16 bits, through the converter */
const toF16 = (bf16: number[]) =>
  halves(
    convertTensor({ name: 'w', dtype: 'BF16', shape: [bf16.length] }, bytes(Uint16Array.from(bf16)), {
      kind: 'float16',
    })[0]!.bytes,
  );

const F16_MAX = 65504;

describe('bfloat16 to float16', () => {
  it('is the nearest float16 (ties to even) for every one of the 65,536 bfloat16 values', () => {
    const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const h = toF16([...all]);
    const x = bf16ToF32(all);
    const y = f16ToF32(h);
    const step = (bits: number) => f16ToF32(Uint16Array.of(bits))[0]!;
    const wrong: string[] = [];
    for (let i = 0; i < 65536; i++) {
      const v = x[i]!;
      const bad = (why: string) => wrong.push(`0x${i.toString(16)} (${v}) -> 0x${h[i]!.toString(16)}: ${why}`);
      if (Number.isNaN(v)) {
        if (!Number.isNaN(y[i]!)) bad('NaN lost');
        continue;
      }
      // beyond float16's range by at least half its last step: infinity of the same sign
      if (Math.abs(v) >= F16_MAX + 16) {
        if (y[i] !== Math.sign(v) * Infinity) bad('not infinity');
        continue;
      }
      if (Math.sign(y[i]!) !== Math.sign(v) && y[i] !== 0) bad('sign');
      // no float16 is closer: the neighbours one step either way are at least as far
      const err = Math.abs(y[i]! - v);
      const magnitude = h[i]! & 0x7fff;
      const others = [magnitude + 1, magnitude - 1].filter((m) => m >= 0 && m < 0x7c00);
      for (const m of others) {
        const d = Math.abs(step(m | (h[i]! & 0x8000)) - v);
        if (d < err) bad('a closer float16 exists');
        if (d === err && err > 0 && h[i]! & 1) bad('tie not to even');
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps the special values: zeros, infinities, NaN, subnormals, the largest float16', () => {
    const bf = (v: number) => f32ToBf16(Float32Array.of(v))[0]!;
    const cases: [number, number][] = [
      [0, 0x0000],
      [-0, 0x8000],
      [Infinity, 0x7c00],
      [-Infinity, 0xfc00],
      [65280, 0x7bf8], // the largest bfloat16 below float16's largest (65504 is no bfloat16)
      [65536, 0x7c00], // past the largest float16: infinity
      [-1e30, 0xfc00],
      [2 ** -24, 0x0001], // the smallest subnormal
      [2 ** -25, 0x0000], // half of it: a tie, to even (zero)
      [1.5 * 2 ** -25, 0x0001],
      [-(2 ** -14), 0x8400], // the smallest normal
      [1e-10, 0x0000], // underflow
    ];
    expect([...toF16(cases.map(([v]) => bf(v)))]).toEqual(cases.map(([, h]) => h));
    const nan = toF16([0x7fc0, 0xffc0, 0x7f81])[0]!;
    expect(nan & 0x7c00).toBe(0x7c00);
    expect(nan & 0x3ff).not.toBe(0);
  });
});

describe('a tensor converted for a precision', () => {
  it('is laid out as convertedLayout says, whatever its dtype, shape and conversion', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('F32' as const, 'F16' as const, 'BF16' as const),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 70 }),
        fc.constantFrom<TensorConversion>(
          { kind: 'keep' },
          { kind: 'float16' },
          { kind: 'int8-rows' },
          { kind: 'blocks', bits: 4, block: 32 },
          { kind: 'blocks', bits: 8, block: 16 },
        ),
        (dtype, rows, k, c) => {
          const t = { name: 'layer.weight', dtype, shape: [rows, k] };
          const size = rows * k * (dtype === 'F32' ? 4 : 2);
          const parts = convertTensor(t, new Uint8Array(size), c);
          const layout = convertedLayout(t, c);
          expect(parts.map(({ bytes: _, ...p }) => p)).toEqual(layout);
          const DT = { F32: 4, F16: 2, BF16: 2, I8: 1, U8: 1 } as Record<string, number>;
          for (const p of parts) expect(p.bytes.length).toBe(p.shape.reduce((a, b) => a * b, 1) * DT[p.dtype]!);
        },
      ),
    );
  });

  it('refuses what it cannot convert, naming the tensor', () => {
    expect(() => convertedLayout({ name: 'norm.weight', dtype: 'F32', shape: [8] }, { kind: 'int8-rows' })).toThrow(
      'tensor "norm.weight": shape [8] is not a (rows, k) weight to quantize',
    );
    expect(() => convertedLayout({ name: 'ids', dtype: 'I64', shape: [2, 2] }, { kind: 'float16' })).toThrow(
      'tensor "ids": dtype I64 cannot become float16 (it must be F32, F16 or BF16)',
    );
  });
});
