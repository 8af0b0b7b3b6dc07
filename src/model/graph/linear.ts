// torch Linear layers as graph ops, on the checkpoint weights where they lie.
import { linear } from '../onnx/ops.ts';
import type { Value } from '../onnx/graph-builder.ts';
import { param, stackedParam, type BuildContext } from './context.ts';

/**
 * One or more Linear layers reading the same input (e.g. to_q, to_k, to_v) as one Gemm over their
 * weights stacked along the output axis: outputs come in the order of `names`.
 */
export function linearLayer(ctx: BuildContext, x: Value, names: string | readonly string[]): Value {
  const list = typeof names === 'string' ? [names] : names;
  const w = list.length === 1 ? param(ctx, `${list[0]}.weight`) : stackedParam(ctx, list, 'weight')!;
  return linear(ctx.g, x, w, stackedParam(ctx, list, 'bias'));
}
