// Block quantization of torch Linear weights (out, in), at session creation, from the checkpoint
// weights: onnxruntime's com.microsoft MatMulNBits layout (B: (N, blocks, block * bits / 8) uint8,
// low nibble first; scales: (N * blocks); zero point implied at 2^(bits - 1)), symmetric, round to
// nearest. Also per-row int8 for DequantizeLinear (the (N, K) weight as stored, one scale per row).

export interface BlockQuantized {
  /** (rows, blocks, block * bits / 8) */
  q: Uint8Array;
  /** (rows * blocks) */
  scales: Float32Array;
}

export const blocksPerRow = (k: number, block: number): number => Math.ceil(k / block);

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/**
 * The float32 scale of a block (or row) whose largest magnitude is `amax`: amax / qmax rounded
 * toward zero, so no dequantized weight exceeds amax (rounded to nearest, a weight at the float32
 * maximum came back as Infinity). NaN when amax is not finite: a NaN or infinite weight makes the
 * float product NaN, and a NaN scale makes the quantized one NaN too (onnxruntime's MatMulNBits and
 * DequantizeLinear propagate it) instead of a finite stand-in.
 */
function scaleOf(amax: number, qmax: number): number {
  if (!Number.isFinite(amax)) return NaN;
  const s = amax / qmax;
  f32[0] = s;
  if (f32[0] > s) u32[0]!--;
  return f32[0];
}

/**
 * max |w[i]| over [from, to): NaN when one is NaN, Infinity when one is infinite (Math.max keeps a
 * NaN, and an infinity is the largest), so either gives a NaN scale, without a separate NaN check
 * in the loop (the faster form: docs/performance.md).
 */
function absMax(w: Float32Array, from: number, to: number): number {
  let amax = 0;
  for (let i = from; i < to; i++) amax = Math.max(amax, Math.abs(w[i]!));
  return amax;
}

/**
 * Quantizes rows [0, rows) of `w` (rows x k, row-major) into `out` starting at output row `row0`:
 * each block of `block` values along k gets scale = max|w| / (2^(bits-1) - 1) (see scaleOf) and
 * q = round(w / scale) + 2^(bits-1), so q - zero point lies in [-(2^(bits-1) - 1), 2^(bits-1) - 1].
 */
export function quantizeRowsInto(
  out: BlockQuantized,
  row0: number,
  w: Float32Array,
  rows: number,
  k: number,
  bits: 4 | 8,
  block: number,
): void {
  const blocks = blocksPerRow(k, block);
  const blob = (block * bits) / 8;
  const zp = 1 << (bits - 1);
  const qmax = zp - 1;
  const { q, scales } = out;
  for (let r = 0; r < rows; r++) {
    const base = r * k;
    for (let b = 0; b < blocks; b++) {
      const k0 = base + b * block;
      const k1 = base + Math.min(k, (b + 1) * block);
      const amax = absMax(w, k0, k1);
      const scale = scaleOf(amax, qmax);
      // |w| <= amax, so w * qmax / amax + zp lies in [1, 2 zp - 1]: round half up is a truncation
      // of it + 0.5, and no clamp is needed (the exact ratio, not the stored scale, which may be
      // smaller: a subnormal one by a lot)
      const inv = scale > 0 ? qmax / amax : 0;
      const bias = zp + 0.5;
      const at = (row0 + r) * blocks + b;
      scales[at] = scale;
      const o = at * blob;
      const n = k1 - k0;
      if (bits === 8) {
        for (let i = 0; i < n; i++) q[o + i] = (w[k0 + i]! * inv + bias) | 0;
        for (let i = n; i < block; i++) q[o + i] = zp;
      } else if (n === block) {
        for (let i = 0; i < block; i += 2)
          q[o + (i >> 1)] = (w[k0 + i]! * inv + bias) | 0 | (((w[k0 + i + 1]! * inv + bias) | 0) << 4);
      } else {
        for (let i = 0; i < block; i += 2) {
          const lo = i < n ? (w[k0 + i]! * inv + bias) | 0 : zp;
          const hi = i + 1 < n ? (w[k0 + i + 1]! * inv + bias) | 0 : zp;
          q[o + (i >> 1)] = lo | (hi << 4);
        }
      }
    }
  }
}

export function dequantizeBlocks(m: BlockQuantized, rows: number, k: number, bits: 4 | 8, block: number): Float32Array {
  const blocks = blocksPerRow(k, block);
  const blob = (block * bits) / 8;
  const zp = 1 << (bits - 1);
  const out = new Float32Array(rows * k);
  for (let r = 0; r < rows; r++) {
    for (let b = 0; b < blocks; b++) {
      const at = r * blocks + b;
      for (let i = 0; i < block && b * block + i < k; i++) {
        const byte = m.q[at * blob + (bits === 8 ? i : i >> 1)]!;
        const v = bits === 8 ? byte : i & 1 ? byte >> 4 : byte & 15;
        out[r * k + b * block + i] = (v - zp) * m.scales[at]!;
      }
    }
  }
  return out;
}

export interface RowQuantized {
  /** (rows, k) int8: the weight as stored */
  q: Int8Array;
  /** (rows) */
  scales: Float32Array;
}

// round half up within [-127, 127] (|w| <= amax): shifted to stay positive for the truncation
const q8 = (v: number, inv: number): number => ((v * inv + 127.5) | 0) - 127;

/**
 * rows [0, rows) of `w` (rows x k) into rows [row0, row0 + rows) of `out`: int8, one symmetric
 * scale per row (output), for DequantizeLinear along axis 0.
 */
export function quantizeRowsInt8Into(out: RowQuantized, row0: number, w: Float32Array, rows: number, k: number): void {
  const { q, scales } = out;
  for (let r = 0; r < rows; r++) {
    const amax = absMax(w, r * k, (r + 1) * k);
    const scale = scaleOf(amax, 127);
    scales[row0 + r] = scale;
    const inv = scale > 0 ? 127 / amax : 0;
    for (let i = 0, src = r * k, at = (row0 + r) * k; i < k; i++) q[at + i] = q8(w[src + i]!, inv);
  }
}

/** how a Linear weight (rows, k) is quantized: per-row int8 (DequantizeLinear) or MatMulNBits blocks */
export type QuantizedFormat = { kind: 'int8-rows' } | { kind: 'blocks'; bits: 4 | 8; block: number };

/** bytes of q and float32 scales per row of a (rows, k) weight in the format */
export function quantizedRow(format: QuantizedFormat, k: number): { qBytes: number; scales: number } {
  if (format.kind === 'int8-rows') return { qBytes: k, scales: 1 };
  const blocks = blocksPerRow(k, format.block);
  return { qBytes: (blocks * format.block * format.bits) / 8, scales: blocks };
}

/** a whole (rows, k) weight quantized: q as the graph's initializer lays it out, float32 scales */
export function quantizeWeight(
  w: Float32Array,
  rows: number,
  k: number,
  format: QuantizedFormat,
): { q: Uint8Array; scales: Float32Array } {
  const per = quantizedRow(format, k);
  const scales = new Float32Array(rows * per.scales);
  if (format.kind === 'int8-rows') {
    const q = new Int8Array(rows * k);
    quantizeRowsInt8Into({ q, scales }, 0, w, rows, k);
    return { q: new Uint8Array(q.buffer), scales };
  }
  const q = new Uint8Array(rows * per.qBytes);
  quantizeRowsInto({ q, scales }, 0, w, rows, k, format.bits, format.block);
  return { q, scales };
}
