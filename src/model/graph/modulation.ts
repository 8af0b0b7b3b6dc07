// All adaptive-norm projections of temb (the norm1/norm2 of every block a graph holds, and norm_out)
// as one MatMul.
// Each block modulation becomes a per-token (B, T + V, inner) tensor: text rows use the enc_*
// chunks, video rows the others, selected by a one-hot (T + V, 2) matrix.
import { add, matmul, reshape, silu, slice, split } from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { innerDim } from './config.ts';
import { constT, type BuildContext } from './context.ts';
import { linearLayer } from './linear.ts';

/**
 * The chunks of `linear(silu(temb))`, in the order the reference slices them. ConsisIDBlock's
 * norm1/norm2 are CogVideoXLayerNormZero (diffusers models/normalization.py, used by
 * transformers/consisid_transformer_3d.py): `shift, scale, gate, enc_shift, enc_scale, enc_gate =
 * self.linear(self.silu(temb)).chunk(6, dim=1)`. norm_out is AdaLayerNorm with chunk_dim=1:
 * `shift, scale = temb.chunk(2, dim=1)`. Every `*scale` chunk is applied as `1 + scale`.
 */
export const LAYER_NORM_ZERO_CHUNKS = ['shift', 'scale', 'gate', 'enc_shift', 'enc_scale', 'enc_gate'] as const;
export const NORM_OUT_CHUNKS = ['shift', 'scale'] as const;

type Chunk = (typeof LAYER_NORM_ZERO_CHUNKS)[number];

interface ChunkRows {
  name: string;
  rows: [number, number];
  /** `1 + scale`: 1 is added to this chunk */
  plusOne: boolean;
}

/** the weight rows of one named chunk of a chunked projection */
function chunkRows(name: string, chunks: readonly Chunk[], chunk: Chunk, d: number): ChunkRows {
  const i = chunks.indexOf(chunk);
  return { name, rows: [i * d, (i + 1) * d], plusOne: chunk.endsWith('scale') };
}

export interface NormModulation {
  shift: Value;
  /** 1 + scale */
  scale: Value;
  gate: Value;
}

export interface BlockModulation {
  norm1: NormModulation;
  norm2: NormModulation;
}

export interface Modulations {
  /** per-token (B, T + V, inner) modulation of block i */
  joint(i: number): BlockModulation;
  /** (B, 1, inner) video-token modulation of block i */
  video(i: number): BlockModulation;
  /** norm_out's modulation: null in a graph without the output head */
  out: { shift: Value; scale: Value } | null;
}

const NORMS = ['norm1', 'norm2'] as const;
const KINDS = ['shift', 'scale', 'gate'] as const;

/** the blocks whose modulations a graph computes, and whether it has the output head's (norm_out) */
export interface ModulatedBlocks {
  from: number;
  to: number;
  out: boolean;
}

/** the modulations of `blocks` (default: every block and norm_out) stacked as one product */
export function modulations(
  ctx: BuildContext,
  temb: Value,
  textLength: number,
  videoLength: number,
  blocks: ModulatedBlocks = { from: 0, to: ctx.config.num_layers, out: true },
): Modulations {
  const { g, config: c } = ctx;
  return g.scoped('modulation', () => {
    const d = innerDim(c);
    const b = temb.dims[0]!;
    // per block, norm and kind: the text (enc_*) chunk, then the video chunk
    const parts: ChunkRows[] = [];
    for (let i = blocks.from; i < blocks.to; i++) {
      for (const n of NORMS) {
        const name = `transformer_blocks.${i}.${n}.linear`;
        for (const kind of KINDS)
          parts.push(
            chunkRows(name, LAYER_NORM_ZERO_CHUNKS, `enc_${kind}`, d),
            chunkRows(name, LAYER_NORM_ZERO_CHUNKS, kind, d),
          );
      }
    }
    const perBlock = NORMS.length * KINDS.length;
    const outChunks = blocks.out ? NORM_OUT_CHUNKS : [];
    for (const chunk of outChunks) parts.push(chunkRows('norm_out.linear', NORM_OUT_CHUNKS, chunk, d));
    // one product over the chunks' weight rows, stacked in this order
    const plusOne = constT(
      ctx,
      parts.map((p) => (p.plusOne ? 1 : 0)),
      [parts.length, 1],
      'modulation_plus_one',
    );
    const all = add(g, reshape(g, linearLayer(ctx, silu(g, temb), parts, 'modulation'), [b, parts.length, d]), plusOne);
    const count = blocks.to - blocks.from;
    const pieces = split(g, all, [...Array<number>(count * perBlock).fill(2), ...outChunks.map(() => 1)], 1);
    const seq = textLength + videoLength;
    const oneHot = new Float32Array(seq * 2);
    for (let s = 0; s < seq; s++) oneHot[s * 2 + (s < textLength ? 0 : 1)] = 1;
    const segments = constT(ctx, oneHot, [seq, 2], 'segment_one_hot');
    const build = (i: number, pick: (v: Value) => Value): BlockModulation => {
      const norm = (n: number): NormModulation => {
        const at = (i - blocks.from) * perBlock + n * KINDS.length;
        const [shift, scale, gate] = KINDS.map((_, k) => pick(pieces[at + k]!)) as [Value, Value, Value];
        return { shift, scale, gate };
      };
      return { norm1: norm(0), norm2: norm(1) };
    };
    const n = count * perBlock;
    return {
      joint: (i) => g.scoped('modulation', () => build(i, (v) => matmul(g, segments, v))),
      video: (i) => g.scoped('modulation', () => build(i, (v) => slice(g, v, 1, 1, 2))),
      out: blocks.out
        ? { shift: pieces[n + NORM_OUT_CHUNKS.indexOf('shift')]!, scale: pieces[n + NORM_OUT_CHUNKS.indexOf('scale')]! }
        : null,
    };
  });
}
