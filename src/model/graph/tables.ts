// Constant tables the reference computes on the host (positional and timestep frequencies),
// reproduced with the same float32 roundings.
const f = Math.fround;

/** get_1d_sincos_pos_embed_from_grid: (M, D) with [sin | cos], frequencies in float64 */
function sincos1d(dim: number, pos: readonly number[]): Float64Array[] {
  const half = dim / 2;
  const omega = Array.from({ length: half }, (_, i) => 1 / 10000 ** (i / half));
  return pos.map((p) => {
    const row = new Float64Array(dim);
    for (let i = 0; i < half; i++) {
      row[i] = Math.sin(p * omega[i]!);
      row[half + i] = Math.cos(p * omega[i]!);
    }
    return row;
  });
}

/**
 * get_3d_sincos_pos_embed for a (frames, gridH, gridW) token grid, flattened to
 * (frames * gridH * gridW, embedDim) in the patch embedding's token order.
 */
export function sincosPositionalTable(
  embedDim: number,
  gridW: number,
  gridH: number,
  frames: number,
  spatialScale: number,
  temporalScale: number,
): Float32Array {
  const dimSpatial = (3 * embedDim) / 4;
  const dimTemporal = embedDim / 4;
  const gw = Array.from({ length: gridW }, (_, i) => f(i / f(spatialScale)));
  const gh = Array.from({ length: gridH }, (_, i) => f(i / f(spatialScale)));
  const gt = Array.from({ length: frames }, (_, i) => f(i / f(temporalScale)));
  // The reference's "emb_h" half is computed from the width coordinate (meshgrid with w first).
  const embW = sincos1d(dimSpatial / 2, gw);
  const embH = sincos1d(dimSpatial / 2, gh);
  const embT = sincos1d(dimTemporal, gt);
  const out = new Float32Array(frames * gridH * gridW * embedDim);
  let o = 0;
  for (let t = 0; t < frames; t++) {
    for (let h = 0; h < gridH; h++) {
      for (let w = 0; w < gridW; w++) {
        out.set(embT[t]!, o);
        out.set(embW[w]!, o + dimTemporal);
        out.set(embH[h]!, o + dimTemporal + dimSpatial / 2);
        o += embedDim;
      }
    }
  }
  return out;
}

/** get_timestep_embedding's frequencies (half_dim values), float32 as torch computes them */
export function timestepFrequencies(embeddingDim: number, downscaleFreqShift: number, maxPeriod = 10000): Float32Array {
  const half = Math.floor(embeddingDim / 2);
  const out = new Float32Array(half);
  const c = f(-Math.log(maxPeriod));
  const denom = f(half - downscaleFreqShift);
  for (let i = 0; i < half; i++) out[i] = f(Math.exp(f(f(c * i) / denom)));
  return out;
}
