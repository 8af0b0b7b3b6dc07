// Safetensors parsing. Headers are untrusted: every size and offset is checked before use.
import { z } from 'zod';
import {
  DTYPE_BYTES,
  HOST_DTYPE,
  safetensorsDtypeSchema,
  toFloat32,
  typedFromBytes,
  type SafetensorsDtype,
} from './dtype.ts';
import type { HostTensor } from '../tensor.ts';

export const MAX_HEADER_BYTES = 100 * 1024 * 1024;

export class SafetensorsError extends Error {
  override name = 'SafetensorsError';
}

const entrySchema = z.object({
  dtype: safetensorsDtypeSchema,
  shape: z
    .array(
      z
        .number()
        .int()
        .nonnegative()
        .max(2 ** 40),
    )
    .max(16),
  data_offsets: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
});
const metadataSchema = z.record(z.string(), z.string());

/** where a tensor lies in its file: `offset` counts from the file's first byte */
export interface SafetensorsTensorInfo {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  offset: number;
  length: number;
}

export interface SafetensorsEntry extends SafetensorsTensorInfo {
  /** a view into the file bytes */
  bytes: Uint8Array;
}

export interface SafetensorsHeader {
  file: string;
  metadata: Record<string, string>;
  tensors: Map<string, SafetensorsTensorInfo>;
  /** bytes before the data section (8 + header length) */
  dataStart: number;
}

export interface SafetensorsFile {
  file: string;
  metadata: Record<string, string>;
  tensors: Map<string, SafetensorsEntry>;
}

const describeIssue = (e: z.ZodError): string =>
  e.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ');

export function readHeaderLength(bytes: Uint8Array, file: string, maxHeaderBytes = MAX_HEADER_BYTES): number {
  if (bytes.length < 8)
    throw new SafetensorsError(`${file}: truncated, ${bytes.length} bytes is shorter than the 8-byte header length`);
  const n = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  if (n > BigInt(maxHeaderBytes))
    throw new SafetensorsError(`${file}: header of ${n} bytes exceeds the ${maxHeaderBytes}-byte limit`);
  return Number(n);
}

/**
 * The header of a safetensors file of `fileSize` bytes, from its JSON bytes (the `readHeaderLength`
 * bytes after the first 8): every entry checked against the file size, no tensor data needed.
 */
export function parseSafetensorsHeader(json: Uint8Array, fileSize: number, file: string): SafetensorsHeader {
  const dataStart = 8 + json.length;
  if (dataStart > fileSize)
    throw new SafetensorsError(
      `${file}: truncated, header says ${json.length} bytes but the file has ${fileSize - 8} after the length`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch (e) {
    throw new SafetensorsError(`${file}: header is not valid UTF-8 JSON (${(e as Error).message})`, { cause: e });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new SafetensorsError(`${file}: header must be a JSON object`);
  const dataLength = fileSize - dataStart;
  const tensors = new Map<string, SafetensorsTensorInfo>();
  let metadata: Record<string, string> = {};
  const spans: { name: string; begin: number; end: number }[] = [];
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '__metadata__') {
      const m = metadataSchema.safeParse(value);
      if (!m.success)
        throw new SafetensorsError(`${file}: __metadata__ must map strings to strings (${describeIssue(m.error)})`);
      metadata = m.data;
      continue;
    }
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success)
      throw new SafetensorsError(`${file}: tensor "${name}": invalid header entry (${describeIssue(parsed.error)})`);
    const {
      dtype,
      shape,
      data_offsets: [begin, end],
    } = parsed.data;
    if (begin > end)
      throw new SafetensorsError(`${file}: tensor "${name}": data_offsets [${begin}, ${end}] are reversed`);
    if (end > dataLength)
      throw new SafetensorsError(
        `${file}: tensor "${name}": data_offsets [${begin}, ${end}] lie outside the ${dataLength}-byte data section (truncated file?)`,
      );
    const expected = shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[dtype];
    if (expected !== end - begin) {
      throw new SafetensorsError(
        `${file}: tensor "${name}": ${dtype} shape [${shape.join(', ')}] needs ${expected} bytes but data_offsets span ${end - begin}`,
      );
    }
    spans.push({ name, begin, end });
    tensors.set(name, { name, dtype, shape, offset: dataStart + begin, length: end - begin });
  }
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  for (let i = 1; i < spans.length; i++) {
    const prev = spans[i - 1]!;
    const cur = spans[i]!;
    if (cur.begin < prev.end)
      throw new SafetensorsError(
        `${file}: tensors "${prev.name}" [${prev.begin}, ${prev.end}] and "${cur.name}" [${cur.begin}, ${cur.end}] overlap`,
      );
  }
  return { file, metadata, tensors, dataStart };
}

export function parseSafetensors(
  bytes: Uint8Array,
  file: string,
  opts: { maxHeaderBytes?: number } = {},
): SafetensorsFile {
  const n = readHeaderLength(bytes, file, opts.maxHeaderBytes);
  if (8 + n > bytes.length)
    throw new SafetensorsError(
      `${file}: truncated, header says ${n} bytes but the file has ${bytes.length - 8} after the length`,
    );
  const header = parseSafetensorsHeader(bytes.subarray(8, 8 + n), bytes.length, file);
  const tensors = new Map<string, SafetensorsEntry>();
  for (const [name, t] of header.tensors)
    tensors.set(name, { ...t, bytes: bytes.subarray(t.offset, t.offset + t.length) });
  return { file, metadata: header.metadata, tensors };
}

export function entryToHost(entry: SafetensorsEntry, file: string): HostTensor {
  const dtype = HOST_DTYPE[entry.dtype];
  if (!dtype)
    throw new SafetensorsError(
      `${file}: tensor "${entry.name}": dtype ${entry.dtype} is not supported (use F32, F16, BF16, F64, I64 or I32)`,
    );
  return { dtype, shape: [...entry.shape], data: typedFromBytes(dtype, entry.bytes) };
}

export function entryToFloat32(entry: SafetensorsEntry, file: string): Float32Array {
  const t = entryToHost(entry, file);
  return toFloat32(t.dtype, t.data);
}
