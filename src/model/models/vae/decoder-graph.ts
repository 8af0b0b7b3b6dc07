// One batch of latent frames through CogVideoXDecoder3D as an ONNX graph: latents in, video frames
// out, every causal convolution's cache as an input (except in the first batch) and an output.
import { GraphBuilder, type Value } from '../../onnx/graph-builder.ts';
import type { ModelDef } from '../../onnx/onnx-proto.ts';
import { cast, div, scalarF32, silu, transpose } from '../../onnx/ops.ts';
import type { ComputeDtype } from '../../graph/context.ts';
import type { WeightSet } from '../../io/safetensors/weight-set.ts';
import { framesOfBatch, spatialScale, type VaeConfig } from './config.ts';
import { decoderLayout } from './decoder-layout.ts';
import { causalConv, resnet, spatialNorm, upsample, type ConvCaches } from './layers.ts';

export interface BatchShape {
  batch: number;
  /** latent frames in this batch */
  frames: number;
  /** latent height and width */
  height: number;
  width: number;
  /** the first batch of a decode: no caches come in */
  first: boolean;
}

export interface DecoderGraph {
  model: ModelDef;
  /** the cache inputs (absent in the first batch) and outputs, in order: cache_in.i feeds from cache_out.i */
  caches: { name: string; dims: number[] }[];
  /** sample (batch, out_channels, frames, 8 height, 8 width) */
  outputDims: number[];
}

export const cacheIn = (i: number): string => `cache_in.${i}`;
export const cacheOut = (i: number): string => `cache_out.${i}`;

export const batchSignature = (s: BatchShape): string =>
  `${s.first ? 'first' : 'next'}:${s.batch}x${s.frames}x${s.height}x${s.width}`;

/**
 * The graph of one batch, computing in `dtype`. Its inputs and outputs are float32 whatever the
 * compute dtype (latents, sample and the caches between batches; a float16 graph casts them).
 */
export function buildDecoderGraph(
  config: VaeConfig,
  weights: WeightSet,
  s: BatchShape,
  dtype: ComputeDtype = 'float32',
): DecoderGraph {
  const g = new GraphBuilder(`cogvideox_decoder_${batchSignature(s).replace(/[:x]/g, '_')}`);
  const ctx = { g, weights, dtype, widenBfloat16: true } as const;
  const l = decoderLayout(config);
  const caches: { name: string; dims: number[] }[] = [];
  const left: Value[] = [];
  const cacheIo: ConvCaches = {
    take(dims, type) {
      const i = caches.length;
      caches.push({ name: `cache.${i}`, dims: [...dims] });
      return s.first ? null : cast(g, g.input(cacheIn(i), 'float32', dims), type);
    },
    leave(cache) {
      left.push(cast(g, cache, 'float32'));
    },
  };
  const latents = g.input('latents', 'float32', [s.batch, s.frames, l.latentChannels, s.height, s.width]);
  const zq = cast(g, div(g, latents, scalarF32(g, config.scaling_factor)), dtype);
  let x = causalConv(ctx, zq, `${l.convIn.prefix}.conv`, cacheIo);
  for (const r of l.mid) x = resnet(ctx, x, zq, r, l.groups, cacheIo);
  for (const b of l.up) {
    for (const r of b.resnets) x = resnet(ctx, x, zq, r, l.groups, cacheIo);
    if (b.upsample) x = upsample(ctx, x, b.upsample.prefix, b.upsample.compressTime);
  }
  x = silu(g, spatialNorm(ctx, x, zq, l.normOut.prefix, l.groups));
  x = causalConv(ctx, x, `${l.convOut.prefix}.conv`, cacheIo);
  const sample = transpose(g, cast(g, x, 'float32'), [0, 2, 1, 3, 4]);
  const scale = spatialScale(config);
  const outputDims = [s.batch, l.outChannels, framesOfBatch(config, s.frames), s.height * scale, s.width * scale];
  if (sample.dims.join(',') !== outputDims.join(','))
    throw new Error(`decoder graph: sample [${sample.dims.join(',')}], expected [${outputDims.join(',')}]`);
  g.output(sample, 'sample');
  left.forEach((c, i) => g.output(c, cacheOut(i)));
  return { model: g.toModel(), caches, outputDims };
}
