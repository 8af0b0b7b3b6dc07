// Safetensors writer (CLI outputs, demo checkpoints, tests).
import { DTYPE_BYTES, SAFETENSORS_DTYPE } from './dtype.ts';
import { numel, type DType, type HostTensor } from '../tensor.ts';

export interface TensorLayout {
  name: string;
  dtype: DType;
  shape: number[];
}

/**
 * The 8-byte length and JSON header for tensors stored in this order, and the byte length of the
 * data section after it: a file can then be written tensor by tensor.
 */
export function safetensorsHeader(tensors: readonly TensorLayout[], metadata?: Record<string, string>): { header: Uint8Array; dataBytes: number } {
  const header: Record<string, unknown> = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    const bytes = numel(t.shape) * DTYPE_BYTES[SAFETENSORS_DTYPE[t.dtype]];
    header[t.name] = { dtype: SAFETENSORS_DTYPE[t.dtype], shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  // The spec pads the header with spaces so the data section starts 8-byte aligned.
  json += ' '.repeat((8 - (new TextEncoder().encode(json).length % 8)) % 8);
  const jsonBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + jsonBytes.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(jsonBytes.length), true);
  out.set(jsonBytes, 8);
  return { header: out, dataBytes: offset };
}

export function writeSafetensors(tensors: Readonly<Record<string, HostTensor>>, metadata?: Record<string, string>): Uint8Array {
  const entries = Object.entries(tensors);
  for (const [name, t] of entries) if (t.data.length !== numel(t.shape)) throw new Error(`tensor "${name}": ${t.data.length} values for shape [${t.shape.join(', ')}]`);
  const { header, dataBytes } = safetensorsHeader(
    entries.map(([name, t]) => ({ name, dtype: t.dtype, shape: t.shape })),
    metadata,
  );
  const out = new Uint8Array(header.length + dataBytes);
  out.set(header);
  let o = header.length;
  for (const [, t] of entries) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), o);
    o += t.data.byteLength;
  }
  return out;
}
