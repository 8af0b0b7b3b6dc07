// The weights of a graph whose tensors are converted for its precision as they download (or read
// back converted from the browser cache): the graph is built once to learn which tensors it takes
// in which form, the converter makes them so, and graphs (whole, or segments) are built again over
// the converted files, their quantized products taking their outputs as stored.
import type { CheckpointFiles } from '../io/checkpoint-file.ts';
import type { ModelDef } from '../onnx/onnx-proto.ts';
import type { Precomputed } from '../onnx/computed-weights.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import { conversionPlan } from './conversion-plan.ts';
import type { WeightConverter } from './weight-converter.ts';

/** what a graph is built over and where its session reads the bytes */
export interface GraphWeights {
  weights: WeightSet;
  files: CheckpointFiles;
  /** quantized outputs stored converted (absent: computed when the session is made) */
  precomputed?: Precomputed;
}

/** the checkpoint's tensors converted for `precision` in the forms `model` (built over the checkpoint) takes them */
export async function convertedWeights(
  model: ModelDef,
  checkpoint: { weights: WeightSet; files: CheckpointFiles },
  precision: WeightPrecision,
  converter: WeightConverter,
): Promise<GraphWeights> {
  const plan = conversionPlan(model, checkpoint.weights, precision);
  const converted = await converter.convert(precision, plan, checkpoint);
  return { weights: converted.weights, files: converted.files, precomputed: converted.quantizedOutputs };
}
