// Identity module: LocalFacialExtractor (perceiver resampler over ViT features) and the
// PerceiverCrossAttention layers that add its output to the video tokens.
import {
  add,
  concat,
  expand,
  gelu,
  layerNorm,
  leakyRelu,
  matmul,
  mul,
  reshape,
  slice,
  softmax,
  split,
  transpose,
} from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { constT, param, type BuildContext } from './context.ts';
import { attention } from './attention.ts';
import { linearLayer } from './linear.ts';

const LN_EPS = 1e-5;

function ln(ctx: BuildContext, x: Value, prefix: string): Value {
  return layerNorm(ctx.g, x, param(ctx, `${prefix}.weight`), param(ctx, `${prefix}.bias`), LN_EPS);
}

const lin = (ctx: BuildContext, x: Value, name: string): Value => linearLayer(ctx, x, name, 'identity');

const scaled = (ctx: BuildContext, x: Value, s: number): Value => mul(ctx.g, x, constT(ctx, [s], [], 'scale'));

/** Linear, LayerNorm, LeakyReLU, Linear, LayerNorm, LeakyReLU, Linear */
function mapping(ctx: BuildContext, x: Value, prefix: string): Value {
  const g = ctx.g;
  let h = leakyRelu(g, ln(ctx, lin(ctx, x, `${prefix}.0`), `${prefix}.1`), 0.01);
  h = leakyRelu(g, ln(ctx, lin(ctx, h, `${prefix}.3`), `${prefix}.4`), 0.01);
  return lin(ctx, h, `${prefix}.6`);
}

function perceiverAttention(ctx: BuildContext, context: Value, latents: Value, prefix: string): Value {
  const { g, config: c } = ctx;
  const inner = c.LFE_dim_head * c.LFE_num_heads;
  const img = ln(ctx, context, `${prefix}.norm1`);
  const lat = ln(ctx, latents, `${prefix}.norm2`);
  const q = lin(ctx, lat, `${prefix}.to_q`);
  const kvInput = concat(g, [img, lat], 1);
  if (foldAttention(ctx, q.dims[1]!, c.LFE_dim_head))
    return lin(ctx, foldedKvAttention(ctx, prefix, q, kvInput), `${prefix}.to_out`);
  const [k, v] = split(g, lin(ctx, kvInput, `${prefix}.to_kv`), [inner, inner], -1) as [Value, Value];
  return lin(ctx, attention(ctx, q, k, v, c.LFE_num_heads), `${prefix}.to_out`);
}

/** 'auto' folds when there are fewer queries than head channels, unless the identity module is quantized (folded products read the weights per head, which no quantized product does) */
function foldAttention(ctx: BuildContext, queries: number, headDim: number): boolean {
  const mode = ctx.foldAttention ?? 'auto';
  return mode === 'always' || (mode === 'auto' && queries < headDim && !ctx.quantization?.('identity', Infinity));
}

/**
 * Attention of few queries over many context tokens without projecting the context:
 * scores = (q_h Wk_h) X^T and output_h = (P_h X) Wv_h^T, X the (normed) context. Wk and Wv are
 * the two halves of to_kv.weight read per head as they lie, (heads, dh, v); the softmax scale
 * goes on the queries and the last product is taken transposed, so no weight is rearranged.
 */
function foldedKvAttention(ctx: BuildContext, prefix: string, q: Value, x: Value): Value {
  const { g, config: c } = ctx;
  const heads = c.LFE_num_heads;
  const dh = c.LFE_dim_head;
  const inner = heads * dh;
  const [bi, nq] = q.dims as [number, number];
  const v = x.dims[2]!;
  const wk = param(ctx, `${prefix}.to_kv.weight`, { rows: [0, inner], dims: [heads, dh, v] });
  const wv = param(ctx, `${prefix}.to_kv.weight`, { rows: [inner, 2 * inner], dims: [heads, dh, v] });
  const qh = scaled(ctx, transpose(g, reshape(g, q, [bi, nq, heads, dh]), [0, 2, 1, 3]), 1 / Math.sqrt(dh));
  const a = reshape(g, matmul(g, qh, wk), [bi, heads * nq, v]);
  const probs = softmax(g, matmul(g, a, transpose(g, x, [0, 2, 1])), -1);
  const o = reshape(g, matmul(g, probs, x), [bi, heads, nq, v]);
  // (o_h Wv_hᵀ)ᵀ = Wv_h o_hᵀ: (bi, heads, dh, nq)
  const outT = matmul(g, wv, transpose(g, o, [0, 1, 3, 2]));
  return reshape(g, transpose(g, outT, [0, 3, 1, 2]), [bi, nq, inner]);
}

/** id_cond (Bi, id_dim), id_vit_hidden[i] (Bi, N, vit) -> (Bi, num_queries, LFE_output_dim) */
export function localFacialExtractor(ctx: BuildContext, idCond: Value, vitHidden: readonly Value[]): Value {
  const { g, config: c } = ctx;
  const p = 'local_facial_extractor';
  return g.scoped(p, () => {
    const bi = idCond.dims[0]!;
    const v = c.LFE_vit_dim;
    const latentsParam = param(ctx, `${p}.latents`);
    const idEmbeds = reshape(g, mapping(ctx, idCond, `${p}.id_embedding_mapping`), [bi, c.LFE_num_id_token, v]);
    let latents = concat(g, [expand(g, latentsParam, [bi, c.LFE_num_querie, v]), idEmbeds], 1);
    const perScale = c.LFE_depth / c.LFE_num_scale;
    for (let s = 0; s < c.LFE_num_scale; s++) {
      const ctxFeature = concat(g, [idEmbeds, mapping(ctx, vitHidden[s]!, `${p}.mapping_${s}`)], 1);
      for (let j = s * perScale; j < (s + 1) * perScale; j++) {
        const l = `${p}.layers.${j}`;
        latents = add(g, perceiverAttention(ctx, ctxFeature, latents, `${l}.0`), latents);
        const ff = lin(ctx, gelu(g, lin(ctx, ln(ctx, latents, `${l}.1.0`), `${l}.1.1`), 'erf'), `${l}.1.3`);
        latents = add(g, ff, latents);
      }
    }
    return matmul(g, slice(g, latents, 1, 0, c.LFE_num_querie), param(ctx, `${p}.proj_out`));
  });
}

/**
 * video (B, V, inner) -> local_face_scale * PerceiverCrossAttention(faceEmb, video).
 * With fewer face tokens than head channels, the projections are folded through the keys and
 * values (scores = video (Wq K^T), output = P (V Wo)): the same product with far fewer FLOPs,
 * since the video tokens never get projected to the wide head space.
 */
export function perceiverCrossAttention(ctx: BuildContext, faceEmb: Value, video: Value, index: number): Value {
  const { g, config: c } = ctx;
  const p = `perceiver_cross_attention.${index}`;
  return g.scoped(p, () => {
    const heads = c.cross_attn_num_heads;
    const dh = c.cross_attn_dim_head;
    const inner = dh * heads;
    const img = ln(ctx, faceEmb, `${p}.norm1`);
    const hs = ln(ctx, video, `${p}.norm2`);
    let [k, vv] = split(g, lin(ctx, img, `${p}.to_kv`), [inner, inner], -1) as [Value, Value];
    const b = video.dims[0]!;
    const [bi, nq] = k.dims as [number, number];
    if (foldAttention(ctx, nq, dh)) return foldedCrossAttention(ctx, p, hs, k, vv);
    if (bi !== b) {
      k = expand(g, k, [b, nq, inner]);
      vv = expand(g, vv, [b, nq, inner]);
    }
    return scaled(
      ctx,
      lin(ctx, attention(ctx, lin(ctx, hs, `${p}.to_q`), k, vv, heads), `${p}.to_out`),
      c.local_face_scale,
    );
  });
}

function foldedCrossAttention(ctx: BuildContext, p: string, hs: Value, k: Value, vv: Value): Value {
  const { g, config: c } = ctx;
  const heads = c.cross_attn_num_heads;
  const dh = c.cross_attn_dim_head;
  const [b, v, d] = hs.dims as [number, number, number];
  const [bi, nq] = k.dims as [number, number];
  // scores_h = hs (Wq_hᵀ k_hᵀ) / sqrt(dh), with (k_h Wq_h)ᵀ from to_q.weight read as (heads, dh, d)
  const wq = param(ctx, `${p}.to_q.weight`, { dims: [heads, dh, d] });
  const kh = scaled(ctx, transpose(g, reshape(g, k, [bi, nq, heads, dh]), [0, 2, 1, 3]), 1 / Math.sqrt(dh));
  const mT = matmul(g, kh, wq);
  const mFlat = reshape(g, transpose(g, mT, [0, 3, 1, 2]), [bi, d, heads * nq]);
  const scores = reshape(g, matmul(g, hs, mFlat), [b, v, heads, nq]);
  const probs = reshape(g, softmax(g, scores, -1), [b, v, heads * nq]);
  // output = P (V_h Wo_hᵀ) * local_face_scale; Wo_h = to_out.weight[:, h]: a Transpose onnxruntime folds
  const wo = transpose(g, param(ctx, `${p}.to_out.weight`, { dims: [d, heads, dh] }), [1, 2, 0]);
  const vh = scaled(ctx, transpose(g, reshape(g, vv, [bi, nq, heads, dh]), [0, 2, 1, 3]), c.local_face_scale);
  const n = reshape(g, matmul(g, vh, wo), [bi, heads * nq, d]);
  return matmul(g, probs, n);
}
