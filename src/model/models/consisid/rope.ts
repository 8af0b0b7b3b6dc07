// image_rotary_emb exactly as the ConsisID pipeline's _prepare_rotary_positional_embeddings makes it
// (get_resize_crop_region_for_grid + get_3d_rotary_pos_embed, float32 like torch).
import type { ConsisIDConfig } from '../../graph/config.ts';
import type { HostTensor } from '../../io/tensor.ts';

const f = Math.fround;

/** Python's round(): halves go to the even neighbour */
export function pythonRound(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export function resizeCropRegionForGrid(
  src: [number, number],
  tgtWidth: number,
  tgtHeight: number,
): [[number, number], [number, number]] {
  const [h, w] = src;
  let resizeHeight: number;
  let resizeWidth: number;
  if (h / w > tgtHeight / tgtWidth) {
    resizeHeight = tgtHeight;
    resizeWidth = Math.trunc(pythonRound((tgtHeight / h) * w));
  } else {
    resizeWidth = tgtWidth;
    resizeHeight = Math.trunc(pythonRound((tgtWidth / w) * h));
  }
  const top = Math.trunc(pythonRound((tgtHeight - resizeHeight) / 2));
  const left = Math.trunc(pythonRound((tgtWidth - resizeWidth) / 2));
  return [
    [top, left],
    [top + resizeHeight, left + resizeWidth],
  ];
}

/** torch.linspace(start, end, steps, dtype=float32) on CPU */
export function linspaceF32(start: number, end: number, steps: number): Float32Array {
  const out = new Float32Array(steps);
  if (steps === 1) {
    out[0] = start;
    return out;
  }
  const s = f(start);
  const e = f(end);
  const step = f((e - s) / (steps - 1));
  const half = Math.floor(steps / 2);
  for (let i = 0; i < steps; i++) out[i] = i < half ? f(s + f(step * i)) : f(e - f(step * (steps - i - 1)));
  return out;
}

/** get_1d_rotary_pos_embed(use_real=True, repeat_interleave_real=True): cos and sin, (S, dim) */
function rotary1d(dim: number, pos: Float32Array, theta = 10000): { cos: Float32Array; sin: Float32Array } {
  const half = dim / 2;
  const freqs = Float32Array.from({ length: half }, (_, i) => f(1 / f(theta ** f((2 * i) / dim))));
  const cos = new Float32Array(pos.length * dim);
  const sin = new Float32Array(pos.length * dim);
  pos.forEach((p, s) => {
    for (let i = 0; i < half; i++) {
      const a = f(p * freqs[i]!);
      cos[s * dim + 2 * i] = cos[s * dim + 2 * i + 1] = Math.cos(a);
      sin[s * dim + 2 * i] = sin[s * dim + 2 * i + 1] = Math.sin(a);
    }
  });
  return { cos, sin };
}

export interface RotaryRequest {
  /** video height in pixels */
  height: number;
  /** video width in pixels */
  width: number;
  /** latent frames */
  numFrames: number;
  vaeScaleFactorSpatial?: number;
}

/** returns image_rotary_emb = [cos, sin], each (numFrames * gridH * gridW, attention_head_dim) */
export function prepareRotaryEmbeddings(
  config: Pick<ConsisIDConfig, 'patch_size' | 'sample_width' | 'sample_height' | 'attention_head_dim'>,
  { height, width, numFrames, vaeScaleFactorSpatial = 8 }: RotaryRequest,
): [HostTensor, HostTensor] {
  const p = config.patch_size;
  const gh = Math.floor(height / (vaeScaleFactorSpatial * p));
  const gw = Math.floor(width / (vaeScaleFactorSpatial * p));
  if (gh < 1 || gw < 1 || numFrames < 1)
    throw new Error(`prepareRotaryEmbeddings: ${height}x${width} px and ${numFrames} frames give an empty token grid`);
  const [start, stop] = resizeCropRegionForGrid(
    [gh, gw],
    Math.floor(config.sample_width / p),
    Math.floor(config.sample_height / p),
  );
  const gridH = linspaceF32(start[0], (stop[0] * (gh - 1)) / gh, gh);
  const gridW = linspaceF32(start[1], (stop[1] * (gw - 1)) / gw, gw);
  const gridT = linspaceF32(0, (numFrames * (numFrames - 1)) / numFrames, numFrames);
  const dim = config.attention_head_dim;
  const dimT = Math.floor(dim / 4);
  const dimH = Math.floor(dim / 8) * 3;
  const t = rotary1d(dimT, gridT);
  const h = rotary1d(dimH, gridH);
  const w = rotary1d(dimH, gridW);
  const total = dimT + 2 * dimH;
  const n = numFrames * gh * gw;
  const make = (key: 'cos' | 'sin'): HostTensor => {
    const out = new Float32Array(n * total);
    let o = 0;
    for (let ti = 0; ti < numFrames; ti++) {
      for (let hi = 0; hi < gh; hi++) {
        for (let wi = 0; wi < gw; wi++) {
          out.set(t[key].subarray(ti * dimT, (ti + 1) * dimT), o);
          out.set(h[key].subarray(hi * dimH, (hi + 1) * dimH), o + dimT);
          out.set(w[key].subarray(wi * dimH, (wi + 1) * dimH), o + dimT + dimH);
          o += total;
        }
      }
    }
    return { dtype: 'float32', shape: [n, total], data: out };
  };
  return [make('cos'), make('sin')];
}
