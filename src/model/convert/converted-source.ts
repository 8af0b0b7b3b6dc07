// A source decorator: the checkpoint of `source`, with its weights converted for one precision as
// they download and kept in the weight cache per precision (weight-converter.ts). The model reads
// the config and the headers through it as through the source itself; the graph it builds for the
// precision says which tensors it takes in which form (conversion-plan.ts), and `convertedWeights`
// makes them so, the graph then built again over the converted files.
import type { CheckpointFiles } from '../io/checkpoint-file.ts';
import { openWeightFile } from '../io/checkpoint-file.ts';
import type { FileSource, ReadOptions } from '../io/file-source.ts';
import { chunkedStream } from '../io/range-blob.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import type { HeldSource } from '../cache/chunked-hub-source.ts';
import type { ModelDef } from '../onnx/onnx-proto.ts';
import type { Precomputed } from '../onnx/computed-weights.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import { conversionPlan } from './conversion-plan.ts';
import { weightConverter, type WeightConverter, type WeightConverterOptions } from './weight-converter.ts';

export interface ConvertedSource extends HeldSource {
  readonly precision: WeightPrecision;
  readonly converter: WeightConverter;
}

/** bytes a file without a Blob is streamed by */
const PIECE = 8 * 2 ** 20;

/** `source` with its weights converted for `precision`, kept in `cache` (null: in memory, within a budget) */
export function convertedSource(
  source: FileSource & Partial<HeldSource>,
  cache: WeightCache | null,
  precision: WeightPrecision,
  opts: Omit<WeightConverterOptions, 'cache' | 'memory'> = {},
): ConvertedSource {
  const file = async (name: string) => {
    const f = await openWeightFile(source, name, {});
    if (!f) throw new Error(`${source.describe(name)} not found`);
    return f;
  };
  const converter = weightConverter(
    {
      identity: async (name) => {
        const f = await file(name);
        return { url: source.describe(name), etag: f.etag ?? null, size: f.size };
      },
      stream: async (name) => {
        const f = await file(name);
        if (f.blob) return f.blob().stream();
        return chunkedStream(f.size, PIECE, 0, f.size, (i, from, to) => f.read(i * PIECE + from, to - from));
      },
    },
    { cache, ...opts },
  );
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
