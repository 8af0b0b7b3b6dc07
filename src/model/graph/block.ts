// ConsisIDBlock: LayerNormZero, self-attention over [text; video] with per-head q/k LayerNorm and
// optional rotary embeddings on the video tokens, gated residuals, feed-forward.
import { add, gather, gelu, layerNorm, mul, reshape, silu, slice, split } from '../onnx/ops.ts';
import { attention } from './attention.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { innerDim } from './config.ts';
import { sigmoidGelu } from './activations.ts';
import { constT, param, type BuildContext } from './context.ts';
import { linearLayer } from './linear.ts';
import { ffProjWidth } from './parameters.ts';
import type { Modulations, NormModulation } from './modulation.ts';

export interface RotaryTables {
  /** (T + V, 1, head_dim): 1 on text rows */
  cos: Value;
  /** (T + V, 1, head_dim): sign-folded sin, 0 on text rows */
  sin: Value;
  /** pair swap permutation of the head dim */
  swap: Value;
}

function norm(ctx: BuildContext, x: Value, prefix: string, eps: number): Value {
  const affine = ctx.config.norm_elementwise_affine;
  const d = x.dims[x.dims.length - 1]!;
  const scale = affine ? param(ctx, `${prefix}.weight`) : ones(ctx, d);
  const bias = affine ? param(ctx, `${prefix}.bias`) : null;
  return layerNorm(ctx.g, x, scale, bias, eps);
}

function ones(ctx: BuildContext, d: number): Value {
  return constT(ctx, new Float32Array(d).fill(1), [d], 'ones');
}

function modulate(ctx: BuildContext, x: Value, m: NormModulation): Value {
  return add(ctx.g, mul(ctx.g, x, m.scale), m.shift);
}

function headNormRope(ctx: BuildContext, x: Value, prefix: string, rope: RotaryTables | null): Value {
  const { g, config: c } = ctx;
  const [b, s] = x.dims as [number, number];
  let h = reshape(g, x, [b, s, c.num_attention_heads, c.attention_head_dim]);
  h = layerNorm(g, h, param(ctx, `${prefix}.weight`), param(ctx, `${prefix}.bias`), 1e-6);
  if (rope) h = add(g, mul(g, h, rope.cos), mul(g, gather(g, h, rope.swap, 3), rope.sin));
  return reshape(g, h, [b, s, innerDim(c)]);
}

function feedForward(ctx: BuildContext, x: Value, prefix: string): Value {
  const { g, config: c } = ctx;
  const h = linearLayer(ctx, x, `${prefix}.net.0.proj`, 'feed-forward');
  let a: Value;
  switch (c.activation_fn) {
    case 'gelu-approximate':
      a = gelu(g, h, 'tanh');
      break;
    case 'gelu':
      a = gelu(g, h, 'erf');
      break;
    case 'geglu':
    case 'swiglu': {
      const half = ffProjWidth(c) / 2;
      const [hs, gate] = split(g, h, [half, half], -1) as [Value, Value];
      a = mul(g, hs, c.activation_fn === 'geglu' ? gelu(g, gate, 'erf') : silu(g, gate));
      break;
    }
    case 'geglu-approximate':
      a = sigmoidGelu(ctx, h);
      break;
    case 'linear-silu':
      a = silu(g, h);
      break;
    default:
      throw new Error(`unsupported activation_fn ${c.activation_fn}`);
  }
  return linearLayer(ctx, a, `${prefix}.net.2`, 'feed-forward');
}

/**
 * x: (B, T + V, inner) joint sequence -> same shape; with `videoOnly` (the last block) only the
 * video rows are computed and returned, (B, V, inner), since nothing reads the text rows after it.
 */
export function consisIDBlock(
  ctx: BuildContext,
  x: Value,
  index: number,
  mods: Modulations,
  rope: RotaryTables | null,
  opts: { textLength: number; videoOnly: boolean },
): Value {
  const { g, config: c } = ctx;
  const p = `transformer_blocks.${index}`;
  return g.scoped(p, () => {
    const eps = c.norm_eps;
    const joint = mods.joint(index);
    const n1 = modulate(ctx, norm(ctx, x, `${p}.norm1.norm`, eps), joint.norm1);
    const d = innerDim(c);
    const qkv = linearLayer(ctx, n1, [`${p}.attn1.to_q`, `${p}.attn1.to_k`, `${p}.attn1.to_v`], 'attention');
    const [q, k, v] = split(g, qkv, [d, d, d], -1) as [Value, Value, Value];
    const s = x.dims[1]!;
    const t = opts.textLength;
    let qn = headNormRope(ctx, q, `${p}.attn1.norm_q`, rope);
    let residual = x;
    let mod2 = joint.norm2;
    let gate1 = joint.norm1.gate;
    if (opts.videoOnly) {
      qn = slice(g, qn, 1, t, s);
      residual = slice(g, x, 1, t, s);
      const video = mods.video(index);
      gate1 = video.norm1.gate;
      mod2 = video.norm2;
    }
    const attn = attention(ctx, qn, headNormRope(ctx, k, `${p}.attn1.norm_k`, rope), v, c.num_attention_heads);
    const x1 = add(g, residual, mul(g, gate1, linearLayer(ctx, attn, `${p}.attn1.to_out.0`, 'attention')));
    const n2 = modulate(ctx, norm(ctx, x1, `${p}.norm2.norm`, eps), mod2);
    return add(g, x1, mul(g, mod2.gate, feedForward(ctx, n2, `${p}.ff`)));
  });
}
