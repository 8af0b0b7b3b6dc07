// All adaptive-norm projections of temb (every block's norm1/norm2 and norm_out) as one MatMul.
// Each block modulation becomes a per-token (B, T + V, inner) tensor: text rows use the enc_*
// chunks, video rows the others, selected by a one-hot (T + V, 2) matrix.
import { matmul, reshape, silu, slice, split, linear } from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { innerDim } from '../config.ts';
import { constT, fusedLinear, type BuildContext, type LinearPart } from './context.ts';

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
  out: { shift: Value; scale: Value };
}

export function modulations(ctx: BuildContext, temb: Value, textLength: number, videoLength: number): Modulations {
  const { g, config: c } = ctx;
  return g.scoped('modulation', () => {
    const d = innerDim(c);
    const b = temb.dims[0]!;
    const parts: LinearPart[] = [];
    for (let i = 0; i < c.num_layers; i++) {
      for (const n of ['norm1', 'norm2']) {
        for (let kind = 0; kind < 3; kind++) {
          const name = `transformer_blocks.${i}.${n}.linear`;
          const biasOffset = kind === 1 ? 1 : 0;
          parts.push({ name, rows: [(3 + kind) * d, (4 + kind) * d], biasOffset });
          parts.push({ name, rows: [kind * d, (kind + 1) * d], biasOffset });
        }
      }
    }
    parts.push({ name: 'norm_out.linear', rows: [0, d] }, { name: 'norm_out.linear', rows: [d, 2 * d], biasOffset: 1 });
    const { w, b: bias } = fusedLinear(ctx, parts, 'modulation');
    const all = reshape(g, linear(g, silu(g, temb), w, bias), [b, parts.length, d]);
    const pieces = split(g, all, [...Array<number>(c.num_layers * 6).fill(2), 1, 1], 1);
    const seq = textLength + videoLength;
    const oneHot = new Float32Array(seq * 2);
    for (let s = 0; s < seq; s++) oneHot[s * 2 + (s < textLength ? 0 : 1)] = 1;
    const segments = constT(ctx, oneHot, [seq, 2], 'segment_one_hot');
    const build = (i: number, pick: (v: Value) => Value): BlockModulation => {
      const at = (k: number) => pick(pieces[i * 6 + k]!);
      return { norm1: { shift: at(0), scale: at(1), gate: at(2) }, norm2: { shift: at(3), scale: at(4), gate: at(5) } };
    };
    const n = c.num_layers * 6;
    return {
      joint: (i) => g.scoped('modulation', () => build(i, (v) => matmul(g, segments, v))),
      video: (i) => g.scoped('modulation', () => build(i, (v) => slice(g, v, 1, 1, 2))),
      out: { shift: pieces[n]!, scale: pieces[n + 1]! },
    };
  });
}
