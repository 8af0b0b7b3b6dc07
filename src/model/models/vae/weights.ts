// Decoder weights enter the graph where they lie in the checkpoint files (ONNX external data), in
// float32 compute: float16 through a Cast that onnxruntime folds when it creates the session,
// bfloat16 widened when the session is made (no bfloat16 Cast on onnxruntime-web's WebGPU EP).
import type { GraphBuilder, Value } from '../../onnx/graph-builder.ts';
import type { ElemType } from '../../onnx/onnx-proto.ts';
import { cast, reshape, slice } from '../../onnx/ops.ts';
import { bf16ToF32 } from '../../io/safetensors/dtype.ts';
import type { WeightSet } from '../../io/safetensors/weight-set.ts';

export interface VaeGraphContext {
  g: GraphBuilder;
  weights: WeightSet;
}

const STORED: Record<string, ElemType> = { F32: 'float32', F16: 'float16' };

/** a checkpoint tensor in float32 */
export function vaeParam(ctx: VaeGraphContext, name: string): Value {
  const e = ctx.weights.get(name);
  if (!e) throw new Error(`weight "${name}" is missing`);
  const location = { location: e.fileName, offset: e.offset, length: e.length };
  if (e.dtype === 'BF16') {
    const compute = ([b]: readonly Uint8Array[]): Uint8Array[] => {
      const bits = new Uint16Array(b!.buffer.slice(b!.byteOffset, b!.byteOffset + b!.byteLength));
      return [new Uint8Array(bf16ToF32(bits).buffer)];
    };
    return ctx.g.computedInitializer(name, 'float32', e.shape, {
      byteLength: e.length * 2,
      output: 0,
      group: { inputs: [location], compute },
    });
  }
  const type = STORED[e.dtype];
  if (!type) throw new Error(`${e.file}: tensor "${name}": dtype ${e.dtype} is not a weight dtype (F32, F16 or BF16)`);
  return cast(ctx.g, ctx.g.externalInitializer(name, type, e.shape, location), 'float32');
}

/** a Conv3d weight (O, I, kt, kh, kw) as the 2-D kernel of time tap `t`: (O, I, kh, kw) */
export function timeTap(ctx: VaeGraphContext, weight: Value, t: number): Value {
  const [o, i, , kh, kw] = weight.dims as [number, number, number, number, number];
  return reshape(ctx.g, slice(ctx.g, weight, 2, t, t + 1), [o, i, kh, kw]);
}
