// The activations the reference's config strings name.
import type { GraphBuilder, Value } from '../onnx/graph-builder.ts';
import { gelu, mul, relu, sigmoid, silu, softplus, tanh } from '../onnx/ops.ts';
import { constT, type BuildContext } from './context.ts';

/** diffusers get_activation (timestep MLP) */
export function timestepActivation(g: GraphBuilder, x: Value, name: string): Value {
  switch (name) {
    case 'silu':
    case 'swish':
      return silu(g, x);
    case 'mish':
      return mul(g, x, tanh(g, softplus(g, x)));
    case 'gelu':
      return gelu(g, x, 'erf');
    case 'relu':
      return relu(g, x);
    default:
      throw new Error(`unsupported timestep activation ${name}`);
  }
}

/** ApproximateGELU: x * sigmoid(1.702 x) */
export function sigmoidGelu(ctx: BuildContext, x: Value): Value {
  return mul(ctx.g, x, sigmoid(ctx.g, mul(ctx.g, x, constT(ctx, [1.702], [], 'gelu_k'))));
}
