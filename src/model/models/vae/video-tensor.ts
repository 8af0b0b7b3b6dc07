// Host-side pieces of 5-D float32 tensors: a box of latents (frames, rows, columns of
// (B, F, C, H, W)), decoded parts joined along an axis of (B, 3, T, H, W), a sample value as a byte.
export interface Tensor5 {
  data: Float32Array;
  dims: readonly [number, number, number, number, number];
}

export const as5 = (dims: readonly number[], what: string): Tensor5['dims'] => {
  if (dims.length !== 5) throw new Error(`${what}: expected 5 dimensions, got [${dims.join(', ')}]`);
  return dims as Tensor5['dims'];
};

/** x[:, :, a1:b1, a2:b2, a3:b3] for ranges on axes 1, 3, 4 (the frames, rows and columns of (B, F, C, H, W)) */
export function cropLatents(
  x: Tensor5,
  frames: readonly [number, number],
  rows: readonly [number, number],
  cols: readonly [number, number],
): Tensor5 {
  const [b, f, c, h, w] = x.dims;
  const [f0, f1] = [frames[0], Math.min(frames[1], f)];
  const [r0, r1] = [rows[0], Math.min(rows[1], h)];
  const [c0, c1] = [cols[0], Math.min(cols[1], w)];
  const out = new Float32Array(b * (f1 - f0) * c * (r1 - r0) * (c1 - c0));
  let o = 0;
  for (let bi = 0; bi < b; bi++)
    for (let fi = f0; fi < f1; fi++)
      for (let ci = 0; ci < c; ci++)
        for (let ri = r0; ri < r1; ri++) {
          const start = (((bi * f + fi) * c + ci) * h + ri) * w;
          out.set(x.data.subarray(start + c0, start + c1), o);
          o += c1 - c0;
        }
  return { data: out, dims: [b, f1 - f0, c, r1 - r0, c1 - c0] };
}

/** parts joined along `axis` (their other dims equal) */
export function joinAlong(parts: readonly Tensor5[], axis: number): Tensor5 {
  const first = parts[0];
  if (!first) throw new Error('nothing to join');
  const dims = [...first.dims] as number[];
  dims[axis] = parts.reduce((s, p) => s + p.dims[axis]!, 0);
  for (const p of parts)
    if (p.dims.some((d, i) => i !== axis && d !== first.dims[i]))
      throw new Error(`cannot join [${p.dims.join(',')}] to [${first.dims.join(',')}] along axis ${axis}`);
  const outer = dims.slice(0, axis).reduce((a, v) => a * v, 1);
  const inner = dims.slice(axis + 1).reduce((a, v) => a * v, 1);
  const out = new Float32Array(outer * dims[axis]! * inner);
  let o = 0;
  for (let i = 0; i < outer; i++)
    for (const p of parts) {
      const n = p.dims[axis]! * inner;
      out.set(p.data.subarray(i * n, (i + 1) * n), o);
      o += n;
    }
  return { data: out, dims: dims as unknown as Tensor5['dims'] };
}

/** a value in [-1, 1] as the pipeline's video processor writes it: (x / 2 + 0.5) clamped to [0, 1], x 255, rounded half to even (numpy) */
export function toByte(x: number): number {
  const v = Math.min(1, Math.max(0, x * 0.5 + 0.5)) * 255;
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 === 1 ? r - 1 : r;
}
