// CogVideoXPatchEmbed: text projection, patchify as reshape + MatMul, positional table.
import { add, concat, linear, reshape, slice, transpose } from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { innerDim } from './config.ts';
import { constT, param, type BuildContext } from './context.ts';
import { linearLayer } from './linear.ts';
import { sincosPositionalTable } from './tables.ts';

export interface LatentGrid {
  batch: number;
  frames: number;
  height: number;
  width: number;
}

/** the sincos table the reference uses for latents of this size, (frames * h/p * w/p, inner) */
export function positionalTableFor(ctx: BuildContext, grid: LatentGrid): Float32Array {
  const c = ctx.config;
  const p = c.patch_size;
  // the reference keeps its configured-size table when the size matches; both are the same numbers
  return sincosPositionalTable(
    innerDim(c),
    Math.floor(grid.width / p),
    Math.floor(grid.height / p),
    grid.frames,
    c.spatial_interpolation_scale,
    c.temporal_interpolation_scale,
  );
}

/** returns the joint sequence (B, T + V, inner): text tokens first */
export function patchEmbed(ctx: BuildContext, text: Value, latents: Value, grid: LatentGrid): Value {
  const { g, config: c } = ctx;
  return g.scoped('patch_embed', () => {
    const d = innerDim(c);
    const p = c.patch_size;
    const { batch: b, frames: f, height: h, width: w } = grid;
    const hp = h / p;
    const wp = w / p;
    const ch = c.in_channels;
    let textEmb = linearLayer(ctx, text, 'patch_embed.text_proj', 'text');
    const x6 = reshape(g, latents, [b * f, ch, hp, p, wp, p]);
    const patches = reshape(g, transpose(g, x6, [0, 2, 4, 1, 3, 5]), [b, f * hp * wp, ch * p * p]);
    // the patch Conv (d, ch, p, p) is a Linear over (ch, p, p) patches: the same bytes read as (d, ch*p*p)
    const convW = param(ctx, 'patch_embed.proj.weight', { dims: [d, ch * p * p] });
    let video = linear(g, patches, convW, param(ctx, 'patch_embed.proj.bias'));
    const pre = (f - 1) * c.temporal_compression_ratio + 1;
    const sameSize = c.sample_height === h && c.sample_width === w && c.sample_frames === pre;
    if (c.use_learned_positional_embeddings && sameSize) {
      const learned = param(ctx, 'patch_embed.pos_embedding');
      textEmb = add(g, textEmb, slice(g, learned, 1, 0, c.max_text_seq_length));
      video = add(g, video, slice(g, learned, 1, c.max_text_seq_length, c.max_text_seq_length + f * hp * wp));
    } else if (!c.use_rotary_positional_embeddings || c.use_learned_positional_embeddings) {
      video = add(g, video, constT(ctx, positionalTableFor(ctx, grid), [f * hp * wp, d], 'pos_embedding'));
    }
    return concat(g, [textEmb, video], 1);
  });
}
