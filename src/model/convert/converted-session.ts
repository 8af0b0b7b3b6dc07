// The session model of a graph whose weights are converted for its precision as they download (or
// read back converted from the browser cache): the graph is built once to learn which tensors it
// takes in which form, the converter makes them so, and the graph is built again over the
// converted files, its quantized products taking their outputs as stored.
import type { BuiltGraph } from '../graph/transformer.ts';
import type { Checkpoint } from '../loader/load-checkpoint.ts';
import type { WeightPrecision } from '../precision.ts';
import type { WeightSet } from '../safetensors/weight-set.ts';
import { sessionModel } from '../session-model.ts';
import type { SessionModel } from '../runtime/types.ts';
import { conversionPlan } from './conversion-plan.ts';
import type { WeightConverter } from './weight-converter.ts';

export async function convertedSessionModel(
  build: (weights: WeightSet) => BuiltGraph,
  checkpoint: Checkpoint,
  precision: WeightPrecision,
  converter: WeightConverter,
): Promise<{ model: SessionModel; outputShape: readonly number[] }> {
  const plan = conversionPlan(build(checkpoint.weights).model, checkpoint.weights, precision);
  const converted = await converter.convert(precision, plan, checkpoint);
  const built = build(converted.weights);
  const model = await sessionModel(built.model, converted.files, { precomputed: converted.quantizedOutputs });
  return { model, outputShape: built.outputShape };
}
