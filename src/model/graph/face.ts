// Identity module: LocalFacialExtractor (perceiver resampler over ViT features) and the
// PerceiverCrossAttention layers that add its output to the video tokens.
import { add, concat, expand, gelu, layerNorm, leakyRelu, linear, matmul, multiHeadAttention, reshape, slice, softmax, split, transpose } from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { fusedLinear, init, param, weight, type BuildContext } from './context.ts';

const LN_EPS = 1e-5;

function ln(ctx: BuildContext, x: Value, prefix: string): Value {
  return layerNorm(ctx.g, x, param(ctx, `${prefix}.weight`), param(ctx, `${prefix}.bias`), LN_EPS);
}

function lin(ctx: BuildContext, x: Value, name: string, scale?: number): Value {
  const p = fusedLinear(ctx, [{ name, ...(scale === undefined ? {} : { scale }) }], name);
  return linear(ctx.g, x, p.w, p.b);
}

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
  if (foldAttention(ctx, q.dims[1]!, c.LFE_dim_head)) return lin(ctx, foldedKvAttention(ctx, prefix, q, kvInput), `${prefix}.to_out`);
  const [k, v] = split(g, lin(ctx, kvInput, `${prefix}.to_kv`), [inner, inner], -1) as [Value, Value];
  return lin(ctx, multiHeadAttention(g, q, k, v, c.LFE_num_heads), `${prefix}.to_out`);
}

function foldAttention(ctx: BuildContext, queries: number, headDim: number): boolean {
  const mode = ctx.foldAttention ?? 'auto';
  return mode === 'always' || (mode === 'auto' && queries < headDim);
}

/**
 * Attention of few queries over many context tokens without projecting the context:
 * scores = (q_h Wk_h) X^T and output_h = (P_h X) Wv_h^T, X the (normed) context.
 */
function foldedKvAttention(ctx: BuildContext, prefix: string, q: Value, x: Value): Value {
  const { g, config: c } = ctx;
  const heads = c.LFE_num_heads;
  const dh = c.LFE_dim_head;
  const inner = heads * dh;
  const [bi, nq] = q.dims as [number, number];
  const v = x.dims[2]!;
  const wkv = weight(ctx, `${prefix}.to_kv.weight`);
  const scale = 1 / Math.sqrt(dh);
  const wk = wkv.slice(0, inner * v).map((w) => w * scale);
  const wvHeads = new Float32Array(inner * v);
  for (let h = 0; h < heads; h++) for (let i = 0; i < v; i++) for (let j = 0; j < dh; j++) wvHeads[(h * v + i) * dh + j] = wkv[(inner + h * dh + j) * v + i]!;
  const qh = transpose(g, reshape(g, q, [bi, nq, heads, dh]), [0, 2, 1, 3]);
  const a = reshape(g, matmul(g, qh, init(ctx, `${prefix}.to_k.weight_heads`, wk, [heads, dh, v])), [bi, heads * nq, v]);
  const probs = softmax(g, matmul(g, a, transpose(g, x, [0, 2, 1])), -1);
  const o = reshape(g, matmul(g, probs, x), [bi, heads, nq, v]);
  const out = matmul(g, o, init(ctx, `${prefix}.to_v.weight_heads`, wvHeads, [heads, v, dh]));
  return reshape(g, transpose(g, out, [0, 2, 1, 3]), [bi, nq, inner]);
}

/** id_cond (Bi, id_dim), id_vit_hidden[i] (Bi, N, vit) -> (Bi, num_queries, LFE_output_dim) */
export function localFacialExtractor(ctx: BuildContext, idCond: Value, vitHidden: readonly Value[]): Value {
  const { g, config: c } = ctx;
  const p = 'local_facial_extractor';
  return g.scoped(p, () => {
    const bi = idCond.dims[0]!;
    const v = c.LFE_vit_dim;
    const latentsParam = init(ctx, `${p}.latents`, weight(ctx, `${p}.latents`), [1, c.LFE_num_querie, v]);
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
    const projOut = init(ctx, `${p}.proj_out`, weight(ctx, `${p}.proj_out`), [v, c.LFE_output_dim]);
    return matmul(g, slice(g, latents, 1, 0, c.LFE_num_querie), projOut);
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
    return lin(ctx, multiHeadAttention(g, lin(ctx, hs, `${p}.to_q`), k, vv, heads), `${p}.to_out`, c.local_face_scale);
  });
}

function foldedCrossAttention(ctx: BuildContext, p: string, hs: Value, k: Value, vv: Value): Value {
  const { g, config: c } = ctx;
  const heads = c.cross_attn_num_heads;
  const dh = c.cross_attn_dim_head;
  const inner = dh * heads;
  const [b, v, d] = hs.dims as [number, number, number];
  const [bi, nq] = k.dims as [number, number];
  // to_q.weight (H*Dh, d) -> (H, d, Dh), with the 1/sqrt(Dh) softmax scale folded in
  const wq = weight(ctx, `${p}.to_q.weight`);
  const scale = 1 / Math.sqrt(dh);
  const wqHeads = new Float32Array(heads * d * dh);
  for (let h = 0; h < heads; h++) for (let i = 0; i < d; i++) for (let j = 0; j < dh; j++) wqHeads[(h * d + i) * dh + j] = wq[(h * dh + j) * d + i]! * scale;
  // to_out.weight (d, H*Dh) -> (H, Dh, d), with local_face_scale folded in
  const wo = weight(ctx, `${p}.to_out.weight`);
  const woHeads = new Float32Array(inner * d);
  for (let r = 0; r < d; r++) for (let j = 0; j < inner; j++) woHeads[j * d + r] = wo[r * inner + j]! * c.local_face_scale;
  const kT = transpose(g, reshape(g, k, [bi, nq, heads, dh]), [0, 2, 3, 1]);
  const m = matmul(g, init(ctx, `${p}.to_q.weight_heads`, wqHeads, [heads, d, dh]), kT);
  const mFlat = reshape(g, transpose(g, m, [0, 2, 1, 3]), [bi, d, heads * nq]);
  const scores = reshape(g, matmul(g, hs, mFlat), [b, v, heads, nq]);
  const probs = reshape(g, softmax(g, scores, -1), [b, v, heads * nq]);
  const vh = transpose(g, reshape(g, vv, [bi, nq, heads, dh]), [0, 2, 1, 3]);
  const n = reshape(g, matmul(g, vh, init(ctx, `${p}.to_out.weight_heads`, woHeads, [heads, dh, d])), [bi, heads * nq, d]);
  return matmul(g, probs, n);
}
