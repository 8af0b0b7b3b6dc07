// The bytes the converter writes for a checkpoint at a precision, known before any weight is
// downloaded: the graph the model builds for the precision (over the tensors the headers describe)
// says which tensors it takes in which form (conversion-plan.ts), and each file's layout
// (converted-file.ts) says what its converted file holds, header included.
import type { ConsisIDConfig } from '../graph/config.ts';
import { buildConsisIDGraph, type GraphShape } from '../graph/transformer.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from '../plan/precision.ts';
import type { Device } from '../runtime/types.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import { conversionPlan, planForFile, type ConversionPlan } from './conversion-plan.ts';
import { convertedFileLayout } from './converted-file.ts';

/** the plan of the graph the model builds for `shape` on `device` at `precision` (consisid-model.ts buildOptions) */
export function planFor(
  config: ConsisIDConfig,
  weights: WeightSet,
  shape: GraphShape,
  device: Device,
  precision: WeightPrecision,
): ConversionPlan {
  const { model } = buildConsisIDGraph(config, weights, shape, {
    dtype: computeDtypeFor(precision, undefined),
    quantization: quantizationFor(precision, device),
    widenBfloat16: device === 'webgpu',
  });
  return conversionPlan(model, weights, precision);
}

/** the bytes of the converted files of `plan` over the checkpoint's files: what the converter writes */
export function convertedSize(plan: ConversionPlan, weights: WeightSet, precision: WeightPrecision): number {
  let bytes = 0;
  for (const file of new Set([...weights.values()].map((e) => e.fileName))) {
    const tensors = planForFile(plan, weights, file);
    if (tensors.length) bytes += convertedFileLayout(tensors, precision).size;
  }
  return bytes;
}

/** per precision but float32 (which converts nothing), the bytes the converter writes for this checkpoint */
export function convertedSizes(
  config: ConsisIDConfig,
  weights: WeightSet,
  shape: GraphShape,
  device: Device,
  precisions: readonly WeightPrecision[],
): Partial<Record<WeightPrecision, number>> {
  return Object.fromEntries(
    precisions
      .filter((p) => p !== 'float32')
      .map((p) => [p, convertedSize(planFor(config, weights, shape, device, p), weights, p)]),
  );
}
