// The decoder's layers on activations laid out (batch, frames, channels, height, width): the
// transformer's latent layout, in which each frame is one image of a 2-D Conv. Only ops that
// onnxruntime's CPU, WASM and WebGPU kernels all have: 2-D Conv, ReduceMean, elementwise ops,
// Slice/Concat/Gather/Expand/Reshape. A causal 3-D convolution is the sum of 2-D convolutions over
// consecutive frames; nearest upsampling is an Expand (space) and a Gather (time).
import { attr, type Value } from '../../onnx/graph-builder.ts';
import {
  add,
  cast,
  concat,
  constI64,
  div,
  expand,
  gather,
  mul,
  reshape,
  scalarF32,
  silu,
  slice,
  sub,
} from '../../onnx/ops.ts';
import { timeTap, vaeParam, type VaeGraphContext } from './weights.ts';

/** where causal convolutions get their cache (null: the first batch, which repeats its first frame) and leave the next */
export interface ConvCaches {
  /** the cache in `type` (the graph's inputs are float32) */
  take(dims: readonly number[], type: Value['type']): Value | null;
  leave(cache: Value): void;
}

const dims5 = (x: Value) => x.dims as [number, number, number, number, number];

/** a 2-D convolution of (N, C, H, W) with a (O, C, k, k) kernel, zero padding k // 2 */
export function conv2d(ctx: VaeGraphContext, x: Value, w: Value, b: Value | null): Value {
  const [n, c, h, wd] = x.dims as [number, number, number, number];
  const [o, ci, kh, kw] = w.dims as [number, number, number, number];
  if (c !== ci) throw new Error(`conv: input [${x.dims.join(',')}] does not match kernel [${w.dims.join(',')}]`);
  const ph = (kh - 1) / 2;
  const pw = (kw - 1) / 2;
  return ctx.g.node('Conv', b ? [x, w, b] : [x, w], [{ type: x.type, dims: [n, o, h, wd] }], {
    kernel_shape: attr.ints([kh, kw]),
    pads: attr.ints([ph, pw, ph, pw]),
  })[0]!;
}

/** a Conv applied to every frame of (B, T, C, H, W) */
export function frameConv(ctx: VaeGraphContext, x: Value, w: Value, b: Value | null): Value {
  const [bs, t, c, h, wd] = dims5(x);
  const y = conv2d(ctx, reshape(ctx.g, x, [bs * t, c, h, wd]), w, b);
  return reshape(ctx.g, y, [bs, t, w.dims[0]!, h, wd]);
}

/**
 * CogVideoXCausalConv3d (pad mode "first"): the time kernel sees the cached last frames of the
 * previous batch before this batch's frames (the first batch: its first frame, repeated); the
 * input's last kt - 1 frames are the next batch's cache. Height and width are zero padded.
 */
export function causalConv(ctx: VaeGraphContext, x: Value, prefix: string, caches: ConvCaches): Value {
  const { g } = ctx;
  const [bs, t, c, h, wd] = dims5(x);
  const weight = vaeParam(ctx, `${prefix}.weight`);
  const bias = vaeParam(ctx, `${prefix}.bias`);
  const kt = weight.dims[2]!;
  if (kt === 1) return frameConv(ctx, x, timeTap(ctx, weight, 0), bias);
  const cached = caches.take([bs, kt - 1, c, h, wd], x.type);
  const first = slice(g, x, 1, 0, 1);
  const padded = concat(g, cached ? [cached, x] : [...Array<Value>(kt - 1).fill(first), x], 1);
  caches.leave(slice(g, padded, 1, t, t + kt - 1));
  let y: Value | null = null;
  for (let dt = 0; dt < kt; dt++) {
    const taps = frameConv(ctx, slice(g, padded, 1, dt, dt + t), timeTap(ctx, weight, dt), dt === 0 ? bias : null);
    y = y ? add(g, y, taps) : taps;
  }
  return y!;
}

/** for each of `to` frames, the frame of `from` that nearest interpolation reads (torch: floor(i * from / to)) */
export function nearestFrames(from: number, to: number): number[] {
  const scale = from / to;
  return Array.from({ length: to }, (_, i) => Math.min(Math.floor(i * scale), from - 1));
}

/** the latent frame each of `frames` activation frames reads in CogVideoXSpatialNorm3D (odd counts: first frame apart) */
export function spatialNormFrames(latentFrames: number, frames: number): number[] {
  if (frames > 1 && frames % 2 === 1) return [0, ...nearestFrames(latentFrames - 1, frames - 1).map((i) => i + 1)];
  return nearestFrames(latentFrames, frames);
}

const isIdentity = (idx: readonly number[], n: number) => idx.length === n && idx.every((v, i) => v === i);

/** frames `idx` of (B, T, ...) along time */
function pickFrames(ctx: VaeGraphContext, x: Value, idx: readonly number[]): Value {
  if (isIdentity(idx, x.dims[1]!)) return x;
  return gather(ctx.g, x, constI64(ctx.g, [...idx], [idx.length], 'frames'), 1);
}

/**
 * GroupNorm (no affine) of (B, T, C, H, W): statistics per batch and group over its channels, all
 * frames, all pixels. Computed in float32 whatever the compute dtype (a float16 graph casts in and
 * out): its sums run over up to millions of values, and a square of a value past 256 is past
 * float16's range (docs/vae.md, "float16").
 */
function groupNorm(ctx: VaeGraphContext, x: Value, groups: number, eps: number): Value {
  const { g } = ctx;
  const [bs, t, c, h, wd] = dims5(x);
  const xr = reshape(g, cast(g, x, 'float32'), [bs, t, groups, c / groups, h * wd]);
  // the mean of each frame's pixels first, then of those: shorter float32 sums than one mean over everything
  const mean = (v: Value, axes: number[], dims: number[]) =>
    g.node('ReduceMean', [v], [{ type: v.type, dims }], { axes: attr.ints(axes), keepdims: attr.int(1) })[0]!;
  const reduce = (v: Value) => mean(mean(v, [4], [bs, t, groups, c / groups, 1]), [1, 3], [bs, 1, groups, 1, 1]);
  const centered = sub(g, xr, reduce(xr));
  const variance = reduce(mul(g, centered, centered));
  const std = g.node('Sqrt', [add(g, variance, scalarF32(g, eps))], [{ type: 'float32', dims: variance.dims }])[0]!;
  return cast(g, reshape(g, div(g, centered, std), [bs, t, c, h, wd]), x.type);
}

/**
 * CogVideoXSpatialNorm3D: GroupNorm of f, scaled and shifted by 1x1 convolutions of the latents zq
 * taken to f's size by nearest interpolation. The 1x1 convolutions run at the latents' size
 * (nearest interpolation commutes with them) and the spatial interpolation is a broadcast.
 */
export function spatialNorm(ctx: VaeGraphContext, f: Value, zq: Value, prefix: string, groups: number): Value {
  const { g } = ctx;
  const [bs, t, c, h, wd] = dims5(f);
  const [, tz, z, zh, zw] = dims5(zq);
  const sh = h / zh;
  const sw = wd / zw;
  if (!Number.isInteger(sh) || !Number.isInteger(sw))
    throw new Error(
      `spatial norm ${prefix}: [${f.dims.join(',')}] is not a multiple of the latents [${zq.dims.join(',')}]`,
    );
  const wy = vaeParam(ctx, `${prefix}.conv_y.conv.weight`);
  const wb = vaeParam(ctx, `${prefix}.conv_b.conv.weight`);
  const w = reshape(g, concat(g, [wy, wb], 0), [2 * c, z, 1, 1]);
  const b = concat(g, [vaeParam(ctx, `${prefix}.conv_y.conv.bias`), vaeParam(ctx, `${prefix}.conv_b.conv.bias`)], 0);
  const yb = pickFrames(ctx, frameConv(ctx, zq, w, b), spatialNormFrames(tz, t));
  const [scale, shift] = [0, 1].map((k) => reshape(g, slice(g, yb, 2, k * c, (k + 1) * c), [bs, t, c, zh, 1, zw, 1]));
  const gamma = reshape(g, vaeParam(ctx, `${prefix}.norm_layer.weight`), [c, 1, 1]);
  const beta = reshape(g, vaeParam(ctx, `${prefix}.norm_layer.bias`), [c, 1, 1]);
  const normed = add(g, mul(g, groupNorm(ctx, f, groups, 1e-6), gamma), beta);
  const out = add(g, mul(g, reshape(g, normed, [bs, t, c, zh, sh, zw, sw]), scale!), shift!);
  return reshape(g, out, [bs, t, c, h, wd]);
}

export interface ResnetSpec {
  prefix: string;
  inChannels: number;
  outChannels: number;
}

/** CogVideoXResnetBlock3D of the decoder (spatial norms, no time embedding, 1x1 shortcut when the channels change) */
export function resnet(
  ctx: VaeGraphContext,
  x: Value,
  zq: Value,
  r: ResnetSpec,
  groups: number,
  caches: ConvCaches,
): Value {
  const { g } = ctx;
  let h = silu(g, spatialNorm(ctx, x, zq, `${r.prefix}.norm1`, groups));
  h = causalConv(ctx, h, `${r.prefix}.conv1.conv`, caches);
  h = silu(g, spatialNorm(ctx, h, zq, `${r.prefix}.norm2`, groups));
  h = causalConv(ctx, h, `${r.prefix}.conv2.conv`, caches);
  const shortcut = r.inChannels === r.outChannels ? x : causalConv(ctx, x, `${r.prefix}.conv_shortcut`, caches);
  return add(g, h, shortcut);
}

/** the frames CogVideoXUpsample3D reads: with compressTime, every frame twice (an odd count keeps its first frame once) */
export function upsampleFrames(frames: number, compressTime: boolean): number[] {
  const all = Array.from({ length: frames }, (_, i) => i);
  if (!compressTime || frames === 1) return all;
  const doubled = (from: number) => all.slice(from).flatMap((i) => [i, i]);
  return frames % 2 === 1 ? [0, ...doubled(1)] : doubled(0);
}

/** CogVideoXUpsample3D: nearest 2x in space (and time), then a 3x3 Conv2d per frame */
export function upsample(ctx: VaeGraphContext, x: Value, prefix: string, compressTime: boolean): Value {
  const { g } = ctx;
  const picked = pickFrames(ctx, x, upsampleFrames(x.dims[1]!, compressTime));
  const [bs, t, c, h, wd] = dims5(picked);
  const wide = expand(g, reshape(g, picked, [bs, t, c, h, 1, wd, 1]), [bs, t, c, h, 2, wd, 2]);
  const up = reshape(g, wide, [bs, t, c, 2 * h, 2 * wd]);
  return frameConv(ctx, up, vaeParam(ctx, `${prefix}.conv.weight`), vaeParam(ctx, `${prefix}.conv.bias`));
}
