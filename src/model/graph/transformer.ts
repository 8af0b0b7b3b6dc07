// ConsisIDTransformer3DModel as one ONNX graph for a fixed set of input shapes.
import { GraphBuilder, type Value } from '../onnx/graph-builder.ts';
import { add, cast, concat, constI64, mul, reshape, slice, transpose, layerNorm } from '../onnx/ops.ts';
import type { ModelDef } from '../onnx/onnx-proto.ts';
import { graphFlops } from '../onnx/graph-cost.ts';
import { innerDim, type ConsisIDConfig } from './config.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import { constT, param, type BuildContext, type ComputeDtype, type Quantization } from './context.ts';
import { linearLayer } from './linear.ts';
import { consisIDBlock, type RotaryTables } from './block.ts';
import { localFacialExtractor, perceiverCrossAttention } from './face.ts';
import { modulations } from './modulation.ts';
import { patchEmbed } from './patch-embed.ts';
import { timeEmbedding } from './time-embedding.ts';

export interface GraphShape {
  batch: number;
  frames: number;
  height: number;
  width: number;
  textLength: number;
  timestepCond: boolean;
  rotary: boolean;
  face: { idBatch: number; vitLengths: number[] } | null;
}

export interface BuiltGraph {
  model: ModelDef;
  flops: number;
  inputs: { name: string; dims: number[] }[];
  outputShape: number[];
}

function finalNorm(ctx: BuildContext, x: Value, prefix: string): Value {
  const d = x.dims[x.dims.length - 1]!;
  if (ctx.config.norm_elementwise_affine)
    return layerNorm(ctx.g, x, param(ctx, `${prefix}.weight`), param(ctx, `${prefix}.bias`), ctx.config.norm_eps);
  return layerNorm(ctx.g, x, constT(ctx, new Float32Array(d).fill(1), [d], 'ones'), null, ctx.config.norm_eps);
}

function rotaryTables(ctx: BuildContext, cosIn: Value, sinIn: Value, textLength: number): RotaryTables {
  const { g, config: c } = ctx;
  const dh = c.attention_head_dim;
  const v = cosIn.dims[0]!;
  const seq = textLength + v;
  const sign = Float32Array.from({ length: dh }, (_, i) => (i % 2 ? 1 : -1));
  const swap = Array.from({ length: dh }, (_, i) => (i % 2 ? i - 1 : i + 1));
  const cosT = cast(g, cosIn, ctx.dtype);
  const sinT = mul(g, cast(g, sinIn, ctx.dtype), constT(ctx, sign, [dh], 'rope_sign'));
  const cosFull = concat(
    g,
    [constT(ctx, new Float32Array(textLength * dh).fill(1), [textLength, dh], 'rope_text_cos'), cosT],
    0,
  );
  const sinFull = concat(
    g,
    [constT(ctx, new Float32Array(textLength * dh), [textLength, dh], 'rope_text_sin'), sinT],
    0,
  );
  return {
    cos: reshape(g, cosFull, [seq, 1, dh]),
    sin: reshape(g, sinFull, [seq, 1, dh]),
    swap: constI64(g, swap, [dh], 'rope_swap'),
  };
}

export interface BuildOptions {
  dtype?: ComputeDtype;
  quantization?: Quantization | null;
  foldAttention?: BuildContext['foldAttention'];
  attention?: BuildContext['attention'];
  widenBfloat16?: boolean;
  pruneLastBlockText?: boolean;
}

export function buildConsisIDGraph(
  config: ConsisIDConfig,
  weights: WeightSet,
  shape: GraphShape,
  opts: BuildOptions = {},
): BuiltGraph {
  return buildTransformerBlocks(config, weights, shape, opts, { from: 0, to: config.num_layers });
}

/** consecutive transformer blocks [from, to) */
export interface BlockRange {
  from: number;
  to: number;
}

/** the values that flow from one segment to the next: outputs of one graph, inputs of a later one */
export const SEGMENT_VALUES = {
  /** the joint sequence (B, T + V, inner) that enters block `block` */
  hidden: (block: number): string => `hidden_states.block_${block}`,
  /** the time embedding (B, time_embed_dim): every block's modulation and norm_out are computed from it */
  temb: 'temb',
  /** the identity module's face embedding (Bi, LFE_num_querie, LFE_output_dim) */
  face: 'face_embedding',
} as const;

/** whether one of the blocks adds the face embedding (a perceiver cross-attention after it) */
export function crossAttends(config: ConsisIDConfig, blocks: BlockRange): boolean {
  const interval = config.cross_attn_interval;
  return config.is_train_face && Math.ceil(blocks.from / interval) * interval < blocks.to;
}

/**
 * Blocks [from, to) as one graph. The one starting at block 0 also embeds (patch embedding, time
 * embedding, the identity module's local facial extractor) and the one ending at the last block
 * also has the output head; the others take the hidden states, the time embedding and the face
 * embedding from the graph before them (float32 graph inputs and outputs named by SEGMENT_VALUES,
 * a lossless cast from a float16 compute). All blocks in one graph is the whole transformer.
 */
export function buildTransformerBlocks(
  config: ConsisIDConfig,
  weights: WeightSet,
  shape: GraphShape,
  opts: BuildOptions,
  blocks: BlockRange,
): BuiltGraph {
  const c = config;
  const first = blocks.from === 0;
  const last = blocks.to === c.num_layers;
  const g = new GraphBuilder(
    first && last ? 'consisid_transformer_3d' : `consisid_transformer_3d.blocks_${blocks.from}_${blocks.to}`,
  );
  const ctx: BuildContext = {
    g,
    config,
    weights,
    dtype: opts.dtype ?? 'float32',
    foldAttention: opts.foldAttention ?? 'auto',
    quantization: opts.quantization ?? null,
    attention: opts.attention ?? 'fused',
    widenBfloat16: opts.widenBfloat16 ?? false,
  };
  const { batch: b, frames: f, height: h, width: w, textLength: t } = shape;
  const p = c.patch_size;
  const videoLength = f * (h / p) * (w / p);
  const jointDims = [b, t + videoLength, innerDim(c)];
  const inputs: { name: string; dims: number[] }[] = [];
  const input = (name: string, dims: number[]): Value => {
    inputs.push({ name, dims });
    return cast(g, g.input(name, 'float32', dims), ctx.dtype);
  };
  const timestepInput = (): Value => {
    inputs.push({ name: 'timestep', dims: [b] });
    return g.input('timestep', 'float32', [b]);
  };
  // the first graph takes the model's inputs; a later one what the graph before it computed
  const modelIn = first
    ? {
        latents: input('hidden_states', [b, f, c.in_channels, h, w]),
        text: input('encoder_hidden_states', [b, t, c.text_embed_dim]),
        timestep: timestepInput(),
        timestepCond: shape.timestepCond ? input('timestep_cond', [b, c.time_embed_dim]) : null,
      }
    : null;
  const carried = first
    ? null
    : {
        x: input(SEGMENT_VALUES.hidden(blocks.from), jointDims),
        temb: input(SEGMENT_VALUES.temb, [b, c.time_embed_dim]),
      };
  let rope: RotaryTables | null = null;
  if (shape.rotary) {
    const cosIn = g.input('image_rotary_emb.cos', 'float32', [videoLength, c.attention_head_dim]);
    const sinIn = g.input('image_rotary_emb.sin', 'float32', [videoLength, c.attention_head_dim]);
    inputs.push(
      { name: 'image_rotary_emb.cos', dims: [videoLength, c.attention_head_dim] },
      { name: 'image_rotary_emb.sin', dims: [videoLength, c.attention_head_dim] },
    );
    rope = rotaryTables(ctx, cosIn, sinIn, t);
  }
  let faceEmb: Value | null = null;
  if (c.is_train_face && shape.face) {
    const bi = shape.face.idBatch;
    if (first) {
      const idCond = input('id_cond', [bi, c.LFE_id_dim]);
      const vit = shape.face.vitLengths.map((n, i) => input(`id_vit_hidden.${i}`, [bi, n, c.LFE_vit_dim]));
      faceEmb = localFacialExtractor(ctx, idCond, vit);
    } else if (crossAttends(c, blocks)) {
      faceEmb = input(SEGMENT_VALUES.face, [bi, c.LFE_num_querie, c.LFE_output_dim]);
    }
  }

  const temb = modelIn ? timeEmbedding(ctx, modelIn.timestep, modelIn.timestepCond) : carried!.temb;
  const mods = modulations(ctx, temb, t, videoLength, { ...blocks, out: last });
  let x = modelIn
    ? patchEmbed(ctx, modelIn.text, modelIn.latents, { batch: b, frames: f, height: h, width: w })
    : carried!.x;
  for (let i = blocks.from; i < blocks.to; i++) {
    const videoOnly = i === c.num_layers - 1 && opts.pruneLastBlockText !== false;
    x = consisIDBlock(ctx, x, i, mods, rope, { textLength: t, videoOnly });
    if (faceEmb && i % c.cross_attn_interval === 0) {
      const video = videoOnly ? x : slice(g, x, 1, t, t + videoLength);
      const withFace = add(g, video, perceiverCrossAttention(ctx, faceEmb, video, i / c.cross_attn_interval));
      x = videoOnly ? withFace : concat(g, [slice(g, x, 1, 0, t), withFace], 1);
    }
  }
  if (!last) {
    const output = (v: Value, name: string): void => g.output(cast(g, v, 'float32'), name);
    output(x, SEGMENT_VALUES.hidden(blocks.to));
    if (first) output(temb, SEGMENT_VALUES.temb);
    if (first && faceEmb && crossAttends(c, { from: blocks.to, to: c.num_layers }))
      output(faceEmb, SEGMENT_VALUES.face);
    const model = g.toModel();
    return { model, flops: graphFlops(model.graph), inputs, outputShape: jointDims };
  }
  if (x.dims[1] !== videoLength) x = slice(g, x, 1, t, t + videoLength);
  const head = mods.out!;
  const out = g.scoped('output', () => {
    let v = finalNorm(ctx, x, 'norm_final');
    v = add(g, mul(g, finalNorm(ctx, v, 'norm_out.norm'), head.scale), head.shift);
    v = linearLayer(ctx, v, 'proj_out', null);
    const hp = h / p;
    const wp = w / p;
    const co = c.out_channels;
    const six = reshape(g, v, [b * f, hp, wp, co, p, p]);
    return reshape(g, transpose(g, six, [0, 3, 1, 4, 2, 5]), [b, f, co, h, w]);
  });
  g.output(cast(g, out, 'float32'), 'sample');
  const model = g.toModel();
  return { model, flops: graphFlops(model.graph), inputs, outputShape: [b, f, c.out_channels, h, w] };
}
