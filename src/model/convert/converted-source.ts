// A source decorator: the checkpoint of `source`, with its weights converted for one precision as
// they download and kept in the weight cache per precision (weight-converter.ts). The model reads
// the config and the headers through it as through the source itself; the graph it builds for the
// precision says which tensors it takes in which form (conversion-plan.ts), and the converter makes
// them so, the graph then built again over the converted files.
import type { FileSource, ReadOptions } from '../io/file-source.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import type { HeldSource } from '../cache/chunked-hub-source.ts';
import type { WeightPrecision } from '../plan/precision.ts';
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
