// Timesteps (sinusoidal) + TimestepEmbedding (linear, act, linear), plus timestep_cond.
import { add, concat, constF32, cos, mul, reshape, sin, cast } from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { innerDim } from './config.ts';
import { timestepActivation } from './activations.ts';
import type { BuildContext } from './context.ts';
import { linearLayer } from './linear.ts';
import { timestepFrequencies } from './tables.ts';

/** timestep: (B,) float32 -> temb (B, time_embed_dim) */
export function timeEmbedding(ctx: BuildContext, timestep: Value, timestepCond: Value | null): Value {
  const { g, config: c } = ctx;
  return g.scoped('time_embedding', () => {
    const dim = innerDim(c);
    const freqs = timestepFrequencies(dim, c.freq_shift);
    const b = timestep.dims[0]!;
    // the sinusoidal part is float32 in the reference whatever the compute dtype
    const args = mul(g, reshape(g, timestep, [b, 1]), constF32(g, freqs, [1, freqs.length], 'timestep_freqs'));
    const parts = c.flip_sin_to_cos ? [cos(g, args), sin(g, args)] : [sin(g, args), cos(g, args)];
    if (dim % 2 === 1) parts.push(constF32(g, new Float32Array(b), [b, 1], 'timestep_pad'));
    const tEmb = cast(g, concat(g, parts, 1), ctx.dtype);
    const h = timestepActivation(g, linearLayer(ctx, tEmb, 'time_embedding.linear_1', null), c.timestep_activation_fn);
    const emb = linearLayer(ctx, h, 'time_embedding.linear_2', null);
    return timestepCond ? add(g, emb, timestepCond) : emb;
  });
}
