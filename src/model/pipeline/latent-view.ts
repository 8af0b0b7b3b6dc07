// Latent frames as pictures: a fixed linear latent-to-RGB projection, per-channel statistics and
// the summary of an output, computed where the latents are (the worker) for the page to draw.

/**
 * The projection matrix (3 x C): channel c contributes cos(phase) to each colour, with phases
 * spread evenly so neighbouring channels pull towards different hues. Fixed for a channel count.
 */
export function rgbProjection(channels: number): Float32Array {
  const m = new Float32Array(3 * channels);
  const norm = 1 / Math.sqrt(channels / 2);
  for (let k = 0; k < 3; k++) {
    for (let c = 0; c < channels; c++)
      m[k * channels + c] = Math.cos((2 * Math.PI * c) / channels + (2 * Math.PI * k) / 3) * norm;
  }
  return m;
}

/**
 * RGBA pixels of frame f of a (1, F, C, H, W) tensor. Values are mapped with a fixed scale:
 * rgb = 0.5 + projection / (2 * range), clamped, so frames compare across steps.
 */
export function frameToRgba(
  data: Float32Array,
  shape: readonly number[],
  frame: number,
  range = 2,
): Uint8ClampedArray<ArrayBuffer> {
  const [, , c = 1, h = 1, w = 1] = shape;
  const proj = rgbProjection(c);
  const px = h * w;
  const base = frame * c * px;
  const out = new Uint8ClampedArray(px * 4);
  for (let i = 0; i < px; i++) {
    for (let k = 0; k < 3; k++) {
      let v = 0;
      for (let ch = 0; ch < c; ch++) v += proj[k * c + ch]! * data[base + ch * px + i]!;
      out[i * 4 + k] = Math.round(255 * (0.5 + v / (2 * range)));
    }
    out[i * 4 + 3] = 255;
  }
  return out;
}

export interface ChannelStats {
  channel: number;
  mean: number;
  std: number;
  min: number;
  max: number;
}

/** mean, std, min and max of each channel of a (B, F, C, H, W) tensor over batch, frames and pixels */
export function channelStats(data: Float32Array, shape: readonly number[]): ChannelStats[] {
  const [b = 1, f = 1, c = 1, h = 1, w = 1] = shape;
  const px = h * w;
  const stats: ChannelStats[] = [];
  for (let ch = 0; ch < c; ch++) {
    let sum = 0;
    let sq = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let bf = 0; bf < b * f; bf++) {
      const base = (bf * c + ch) * px;
      for (let i = 0; i < px; i++) {
        const v = data[base + i]!;
        sum += v;
        sq += v * v;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    const n = b * f * px;
    const mean = sum / n;
    stats.push({ channel: ch, mean, std: Math.sqrt(Math.max(0, sq / n - mean * mean)), min, max });
  }
  return stats;
}

/** Summary the page shows (and tests read): shape, sums and the first values. */
export interface OutputSummary {
  shape: number[];
  sum: number;
  sumAbs: number;
  maxAbs: number;
  first: number[];
}

export function summarize(shape: readonly number[], data: ArrayLike<number>): OutputSummary {
  let sum = 0;
  let sumAbs = 0;
  let maxAbs = 0;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    sum += v;
    sumAbs += Math.abs(v);
    if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
  }
  return {
    shape: [...shape],
    sum,
    sumAbs,
    maxAbs,
    first: Array.from({ length: Math.min(8, data.length) }, (_, i) => data[i]!),
  };
}

/** what the page draws of a (1, F, C, H, W) latent tensor: each frame as RGBA pixels, and each channel's statistics */
export interface LatentView {
  shape: number[];
  frames: Uint8ClampedArray<ArrayBuffer>[];
  stats: ChannelStats[];
}

export function latentView(data: Float32Array, shape: readonly number[]): LatentView {
  const frames = Array.from({ length: shape[1] ?? 1 }, (_, f) => frameToRgba(data, shape, f));
  return { shape: [...shape], frames, stats: channelStats(data, shape) };
}
