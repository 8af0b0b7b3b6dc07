// A source decorator: the checkpoint of `source`, with its weights converted for one precision as
// they download and kept in the weight cache per precision (weight-converter.ts). The model reads
// the config and the headers through it as through the source itself; the graph it builds for the
// precision says which tensors it takes in which form (conversion-plan.ts), and the converter makes
// them so, the graph then built again over the converted files.
import type { FileSource, ReadOptions } from '../io/file-source.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import type { HeldSource } from '../cache/chunked-hub-source.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import type { CheckpointWeights } from '../io/checkpoint-file.ts';
import type { ModelDef } from '../onnx/onnx-proto.ts';
import type { Precomputed } from '../onnx/computed-weights.ts';
import { conversionPlan } from './conversion-plan.ts';
import { weightConverter, type WeightConverter, type WeightConverterOptions } from './weight-converter.ts';

export interface ConvertedSource extends HeldSource {
  readonly precision: WeightPrecision;
  readonly converter: WeightConverter;
}

/** `source` with its weights converted for `precision`, kept in `cache` (null: in memory, within a budget) */
export function convertedSource(
  source: FileSource & Partial<HeldSource>,
  cache: WeightCache | null,
  precision: WeightPrecision,
  opts: Omit<WeightConverterOptions, 'cache' | 'memory'> = {},
): ConvertedSource {
  const converter = weightConverter(source, { cache, ...opts });
  return {
    precision,
    converter,
    describe: (name) => source.describe(name),
    read: (name, o) => source.read(name, o),
    ...(source.open ? { open: (name: string, o?: ReadOptions) => source.open!(name, o) } : {}),
    complete: async () => (await source.complete?.()) ?? false,
    async release() {
      await source.release?.();
      await converter.release();
    },
  };
}

/** the converted source behind `source`, when it is one */
export const asConverted = (source: FileSource): ConvertedSource | null =>
  'converter' in source && 'precision' in source ? (source as ConvertedSource) : null;

/** the conversion a convertedSource brings, for the model's precision; a source converted to another precision is refused */
export function conversionOf(source: FileSource, weights: WeightPrecision): { converter?: WeightConverter } {
  const converted = asConverted(source);
  if (!converted) return {};
  if (converted.precision !== weights)
    throw new Error(`the source converts the weights to ${converted.precision}, the model asks for ${weights}`);
  return { converter: converted.converter };
}

/**
 * What a model's graphs are built over: the checkpoint's tensors, or (with a converter and a
 * precision other than float32) the same converted as `graph`, built for the precision, takes them
 * (its conversion plan), from the cache or as they download. Any model: the plan is read off the graph.
 */
export async function graphWeights(
  checkpoint: CheckpointWeights,
  converter: WeightConverter | undefined,
  precision: WeightPrecision,
  graph: () => ModelDef,
): Promise<CheckpointWeights & { precomputed?: Precomputed }> {
  if (!converter || precision === 'float32') return checkpoint;
  return converter.convert(precision, conversionPlan(graph(), checkpoint.weights, precision), checkpoint);
}
