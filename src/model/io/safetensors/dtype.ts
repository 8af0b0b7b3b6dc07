// Safetensors dtypes and their conversion to float32.
import { z } from 'zod';
import type { DType, TensorData } from '../tensor.ts';

export const safetensorsDtypeSchema = z.enum(['F64', 'F32', 'F16', 'BF16', 'I64', 'I32', 'I16', 'I8', 'U8', 'BOOL']);
export type SafetensorsDtype = z.infer<typeof safetensorsDtypeSchema>;

export const DTYPE_BYTES: Record<SafetensorsDtype, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

export const HOST_DTYPE: Partial<Record<SafetensorsDtype, DType>> = {
  F64: 'float64',
  F32: 'float32',
  F16: 'float16',
  BF16: 'bfloat16',
  I64: 'int64',
  I32: 'int32',
};
export const SAFETENSORS_DTYPE: Record<DType, SafetensorsDtype> = {
  float64: 'F64',
  float32: 'F32',
  float16: 'F16',
  bfloat16: 'BF16',
  int64: 'I64',
  int32: 'I32',
};

const f16Table = (() => {
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    t[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  return t;
})();

export function f16ToF32(bits: Uint16Array): Float32Array {
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = f16Table[bits[i]!]!;
  return out;
}

export function bf16ToF32(bits: Uint16Array): Float32Array {
  const u = new Uint32Array(bits.length);
  for (let i = 0; i < bits.length; i++) u[i] = bits[i]! << 16;
  return new Float32Array(u.buffer);
}

const f32Buf = new Float32Array(1);
const u32Buf = new Uint32Array(f32Buf.buffer);

/** round-to-nearest-even float32 -> float16 bits */
export function f32ToF16Bits(value: number): number {
  f32Buf[0] = value;
  const x = u32Buf[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let h = (e << 10) | (mant >> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

export function f32ToF16(values: Float32Array): Uint16Array {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = f32ToF16Bits(values[i]!);
  return out;
}

let bf16ToF16Table: Uint16Array | null = null;

/**
 * bfloat16 bits -> float16 bits, rounded to nearest even: every bfloat16 value is a float32, so
 * this is f32ToF16Bits of it (subnormals, overflow to infinity, NaN as f32ToF16Bits makes them),
 * looked up in a table of all 65,536 inputs built on first use.
 */
export function bf16ToF16(bits: Uint16Array): Uint16Array {
  if (!bf16ToF16Table) {
    const t = new Uint16Array(65536);
    const wide = bf16ToF32(Uint16Array.from({ length: 65536 }, (_, i) => i));
    for (let i = 0; i < 65536; i++) t[i] = f32ToF16Bits(wide[i]!);
    bf16ToF16Table = t;
  }
  const table = bf16ToF16Table;
  const out = new Uint16Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = table[bits[i]!]!;
  return out;
}

/** round-to-nearest-even float32 -> bfloat16 bits */
export function f32ToBf16(values: Float32Array): Uint16Array {
  const u = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < u.length; i++) {
    const x = u[i]!;
    out[i] =
      (x & 0x7f800000) === 0x7f800000 && x & 0x7fffff ? (x >>> 16) | 0x40 : (x + 0x7fff + ((x >>> 16) & 1)) >>> 16;
  }
  return out;
}

/** copies little-endian bytes into a typed array of the dtype (unaligned input is fine) */
export function typedFromBytes(dtype: DType, bytes: Uint8Array): TensorData {
  const copy = bytes.slice();
  switch (dtype) {
    case 'float32':
      return new Float32Array(copy.buffer);
    case 'float64':
      return new Float64Array(copy.buffer);
    case 'int64':
      return new BigInt64Array(copy.buffer);
    case 'int32':
      return new Int32Array(copy.buffer);
    case 'float16':
    case 'bfloat16':
      return new Uint16Array(copy.buffer);
  }
}

/** float32 values of a float tensor's little-endian bytes (a view when they are aligned float32 already) */
export function floatValues(dtype: SafetensorsDtype, bytes: Uint8Array): Float32Array {
  if (dtype === 'F32' && bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  // 16-bit words read in place: widened once, not copied first
  if ((dtype === 'BF16' || dtype === 'F16') && bytes.byteOffset % 2 === 0) {
    const words = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    return dtype === 'BF16' ? bf16ToF32(words) : f16ToF32(words);
  }
  const host = HOST_DTYPE[dtype];
  if (!host) throw new Error(`dtype ${dtype} is not a float dtype`);
  return toFloat32(host, typedFromBytes(host, bytes));
}

export function toFloat32(dtype: DType, data: TensorData): Float32Array {
  if (data instanceof Float32Array) return data;
  if (dtype === 'float16') return f16ToF32(data as Uint16Array);
  if (dtype === 'bfloat16') return bf16ToF32(data as Uint16Array);
  if (data instanceof BigInt64Array) return Float32Array.from(data, (v) => Number(v));
  return Float32Array.from(data as Float64Array | Int32Array);
}
