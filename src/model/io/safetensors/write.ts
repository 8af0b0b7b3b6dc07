// Safetensors writer (CLI outputs, demo checkpoints, generated checkpoints, tests).
import { DTYPE_BYTES, SAFETENSORS_DTYPE, type SafetensorsDtype } from './dtype.ts';
import { numel, type DType, type HostTensor } from '../tensor.ts';

export interface TensorLayout {
  name: string;
  /** a host dtype, or a safetensors one (I8, U8: quantized weights) */
  dtype: DType | SafetensorsDtype;
  shape: readonly number[];
}

/** the safetensors dtype of a layout's dtype */
export const layoutDtype = (d: DType | SafetensorsDtype): SafetensorsDtype =>
  d in SAFETENSORS_DTYPE ? SAFETENSORS_DTYPE[d as DType] : (d as SafetensorsDtype);

/** the 8-byte length and the JSON header (padded so data starts 8-byte aligned) for tensors written in this order */
export function safetensorsHeader(tensors: readonly TensorLayout[], metadata?: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    const dtype = layoutDtype(t.dtype);
    const length = numel(t.shape) * DTYPE_BYTES[dtype];
    header[t.name] = { dtype, shape: t.shape, data_offsets: [offset, offset + length] };
    offset += length;
  }
  let json = JSON.stringify(header);
  // The spec pads the header with spaces so the data section starts 8-byte aligned.
  json += ' '.repeat((8 - (new TextEncoder().encode(json).length % 8)) % 8);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  return out;
}

export function writeSafetensors(
  tensors: Readonly<Record<string, HostTensor>>,
  metadata?: Record<string, string>,
): Uint8Array {
  const entries = Object.entries(tensors);
  for (const [name, t] of entries)
    if (t.data.length !== numel(t.shape))
      throw new Error(`tensor "${name}": ${t.data.length} values for shape [${t.shape.join(', ')}]`);
  const head = safetensorsHeader(
    entries.map(([name, t]) => ({ name, dtype: t.dtype, shape: t.shape })),
    metadata,
  );
  const out = new Uint8Array(head.length + entries.reduce((s, [, t]) => s + t.data.byteLength, 0));
  out.set(head, 0);
  let o = head.length;
  for (const [, t] of entries) {
    out.set(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), o);
    o += t.data.byteLength;
  }
  return out;
}
