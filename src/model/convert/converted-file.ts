// A checkpoint file converted for one precision is itself a safetensors file: the plan's tensors
// in their converted parts (tensor-conversion.ts), in the order of the source file, and in its
// metadata the precision and each tensor's conversion. Its size and header follow from the plan,
// so the header is written first and the parts after it as the tensors arrive.
import { SafetensorsError, type SafetensorsHeader } from '../io/safetensors/read.ts';
import { safetensorsHeader } from '../io/safetensors/write.ts';
import { DTYPE_BYTES } from '../io/safetensors/dtype.ts';
import { numel } from '../io/tensor.ts';
import type { WeightPrecision } from '../plan/precision.ts';
import type { FileVersion } from '../cache/weight-cache.ts';
import { convertedLayout, type PartLayout, type TensorConversion, type TensorSource } from './tensor-conversion.ts';

/** changes whenever converted bytes would differ: a stored file of another format is converted anew */
export const CONVERSION_FORMAT = 'hub-console-converted-v1';

export interface ConvertedFileLayout {
  /** the 8-byte length and the JSON header */
  head: Uint8Array;
  /** the whole file */
  size: number;
  /** the parts after the header, in order */
  parts: PartLayout[];
}

export function convertedFileLayout(
  tensors: readonly { source: TensorSource; conversion: TensorConversion }[],
  precision: WeightPrecision,
): ConvertedFileLayout {
  const parts = tensors.flatMap((t) => convertedLayout(t.source, t.conversion));
  const conversions = Object.fromEntries(tensors.map((t) => [t.source.name, t.conversion]));
  const head = safetensorsHeader(parts, {
    format: CONVERSION_FORMAT,
    precision,
    conversions: JSON.stringify(conversions),
  });
  // the file: the head, then the bytes of every converted part
  return { head, size: parts.reduce((s, p) => s + numel(p.shape) * DTYPE_BYTES[p.dtype], head.length), parts };
}

/** each tensor's conversion, from a converted file's header; an error when the file is not one of this format */
export function storedConversions(header: SafetensorsHeader): Map<string, TensorConversion> {
  if (header.metadata.format !== CONVERSION_FORMAT || !header.metadata.conversions)
    throw new SafetensorsError(`${header.file}: not a converted checkpoint file of format ${CONVERSION_FORMAT}`);
  return new Map(Object.entries(JSON.parse(header.metadata.conversions) as Record<string, TensorConversion>));
}

/**
 * The cache entry of a checkpoint file converted for a precision: a URL of its own per precision
 * (so each precision keeps its own converted bytes beside the file's chunks) and a version per
 * source ETag and conversion format (a new one replaces the older).
 */
export const convertedVersion = (
  source: { describe: string; etag?: string | null },
  precision: string,
  size: number,
  chunkBytes: number,
): FileVersion => ({
  url: convertedUrl(source.describe, precision),
  etag: convertedEtag(source.etag ?? null),
  size,
  chunkBytes,
});

export const convertedUrl = (url: string, precision: string) => `${url}#converted-${precision}`;
export const convertedEtag = (etag: string | null) => `${etag ?? '(none)'} ${CONVERSION_FORMAT}`;
