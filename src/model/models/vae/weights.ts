// Decoder weights enter the graph where they lie in the checkpoint files (ONNX external data), in
// the graph's compute dtype, through the transformer's `param` (graph/context.ts): a stored dtype
// other than the compute dtype is a Cast onnxruntime folds when it creates the session; bfloat16 is
// widened when the session is made (no bfloat16 Cast on onnxruntime-web's WebGPU EP).
import type { Value } from '../../onnx/graph-builder.ts';
import { reshape, slice } from '../../onnx/ops.ts';
import { param, type ParamContext } from '../../graph/context.ts';

/** a decoder graph's builder, weights and compute dtype (bfloat16 always widened when the session is made) */
export type VaeGraphContext = ParamContext & { widenBfloat16: true };

/** a checkpoint tensor in the compute dtype */
export const vaeParam = (ctx: VaeGraphContext, name: string): Value => param(ctx, name);

/** a Conv3d weight (O, I, kt, kh, kw) as the 2-D kernel of time tap `t`: (O, I, kh, kw) */
export function timeTap(ctx: VaeGraphContext, weight: Value, t: number): Value {
  const [o, i, , kh, kw] = weight.dims as [number, number, number, number, number];
  return reshape(ctx.g, slice(ctx.g, weight, 2, t, t + 1), [o, i, kh, kw]);
}
