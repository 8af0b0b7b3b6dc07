// Safetensors writer (CLI outputs, demo checkpoints, tests).
import { SAFETENSORS_DTYPE } from './dtype.ts';
import { numel, type HostTensor } from '../tensor.ts';

export function writeSafetensors(tensors: Readonly<Record<string, HostTensor>>, metadata?: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  const chunks: Uint8Array[] = [];
  for (const [name, t] of Object.entries(tensors)) {
    if (t.data.length !== numel(t.shape)) throw new Error(`tensor "${name}": ${t.data.length} values for shape [${t.shape.join(', ')}]`);
    const b = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    header[name] = { dtype: SAFETENSORS_DTYPE[t.dtype], shape: t.shape, data_offsets: [offset, offset + b.length] };
    chunks.push(b);
    offset += b.length;
  }
  let json = JSON.stringify(header);
  // The spec pads the header with spaces so the data section starts 8-byte aligned.
  json += ' '.repeat((8 - (new TextEncoder().encode(json).length % 8)) % 8);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let o = 8 + headerBytes.length;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
