// Which checkpoint tensors a graph takes in which form, read off the built graph itself: the
// weights its quantized products compute (their format), and the tensors it references as they
// lie (float16 in a float16 graph, else kept as stored: the graph casts them). Tensors the graph
// does not use are not in the plan. The bytes the converter writes follow from the plan before any
// weight is downloaded: each file's layout (converted-file.ts) says what its converted file holds.
import type { ExternalLocation, ModelDef } from '../onnx/onnx-proto.ts';
import type { WeightEntry, WeightSet } from '../io/safetensors/weight-set.ts';
import type { ConsisIDConfig } from '../graph/config.ts';
import { buildConsisIDGraph, type GraphShape } from '../graph/transformer.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from '../plan/precision.ts';
import type { Device } from '../runtime/types.ts';
import { convertedFileLayout } from './converted-file.ts';
import { sameConversion, type TensorConversion } from './tensor-conversion.ts';

export type ConversionPlan = ReadonlyMap<string, TensorConversion>;

/** the checkpoint tensor that bytes at `loc` belong to (a whole tensor, or some of its rows) */
function tensorLocator(weights: WeightSet): (loc: ExternalLocation) => WeightEntry | undefined {
  const byFile = new Map<string, WeightEntry[]>();
  for (const e of weights.values()) byFile.set(e.fileName, [...(byFile.get(e.fileName) ?? []), e]);
  return (loc) =>
    byFile.get(loc.location)?.find((e) => loc.offset >= e.offset && loc.offset + loc.length <= e.offset + e.length);
}

export function conversionPlan(model: ModelDef, weights: WeightSet, precision: WeightPrecision): ConversionPlan {
  const plan = new Map<string, TensorConversion>();
  const add = (tensor: string, c: TensorConversion) => {
    const had = plan.get(tensor);
    if (had && !sameConversion(had, c))
      throw new Error(`tensor "${tensor}" is taken both as ${JSON.stringify(had)} and ${JSON.stringify(c)}`);
    plan.set(tensor, c);
  };
  const locate = tensorLocator(weights);
  for (const t of model.graph.initializers) {
    const q = t.computed?.group.quantized;
    if (q) for (const p of q.parts) add(p.tensor, q.format);
    // a tensor the graph takes as it lies, or widens when the session is made (bfloat16 on WebGPU)
    const taken = t.external ? [t.external] : q ? [] : (t.computed?.group.inputs ?? []);
    for (const loc of taken) {
      const e = locate(loc);
      if (e) add(e.name, precision === 'float16' && e.dtype !== 'F16' ? { kind: 'float16' } : { kind: 'keep' });
    }
  }
  return plan;
}

/** a checkpoint tensor and the form the plan takes it in */
export interface PlannedTensor {
  source: WeightEntry;
  conversion: TensorConversion;
}

/** the plan's tensors that lie in one checkpoint file, in file order, each with its conversion */
export function planForFile(plan: ConversionPlan, weights: WeightSet, fileName: string): PlannedTensor[] {
  return [...weights.values()]
    .filter((e) => e.fileName === fileName && plan.has(e.name))
    .sort((a, b) => a.offset - b.offset)
    .map((source) => ({ source, conversion: plan.get(source.name)! }));
}

/** per precision but float32 (which converts nothing), the bytes the converter writes for this checkpoint */
export function convertedSizes(
  config: ConsisIDConfig,
  weights: WeightSet,
  shape: GraphShape,
  device: Device,
  precisions: readonly WeightPrecision[],
): Partial<Record<WeightPrecision, number>> {
  const files = new Set([...weights.values()].map((e) => e.fileName));
  const sizeOf = (precision: WeightPrecision) => {
    // the graph the model builds for `shape` on `device` at `precision` (consisid-graphs.ts buildOptions)
    const { model } = buildConsisIDGraph(config, weights, shape, {
      dtype: computeDtypeFor(precision, undefined),
      quantization: quantizationFor(precision, device),
      widenBfloat16: device === 'webgpu',
    });
    const plan = conversionPlan(model, weights, precision);
    let bytes = 0;
    for (const file of files) {
      const tensors = planForFile(plan, weights, file);
      if (tensors.length) bytes += convertedFileLayout(tensors, precision).size;
    }
    return bytes;
  };
  return Object.fromEntries(precisions.filter((p) => p !== 'float32').map((p) => [p, sizeOf(p)]));
}
