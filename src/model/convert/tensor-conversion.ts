// One checkpoint tensor converted to the form a graph of some precision takes: kept as stored,
// float16, or quantized as the graph's quantized ops lay it out (quantize.ts, the same functions
// the session computes them with). A converted tensor is one or two named parts of a safetensors
// file: the tensor under its own name, or `<name>:q` and `<name>:scales`.
import { bf16ToF16, f32ToF16, floatValues, type SafetensorsDtype } from '../io/safetensors/dtype.ts';
import type { SafetensorsTensorInfo } from '../io/safetensors/read.ts';
import { quantizeWeight, quantizedRow, type QuantizedFormat } from '../graph/quantize.ts';
import type { TensorLayout } from '../io/safetensors/write.ts';

export type TensorConversion = { kind: 'keep' } | { kind: 'float16' } | QuantizedFormat;

/** what a converted tensor is made from: its name, stored dtype and shape */
export type TensorSource = Pick<SafetensorsTensorInfo, 'name' | 'dtype' | 'shape'>;

/** one part of a converted tensor in a safetensors file */
export interface PartLayout extends TensorLayout {
  dtype: SafetensorsDtype;
}

export interface ConvertedPart extends PartLayout {
  bytes: Uint8Array;
}

export const quantizedName = (tensor: string) => `${tensor}:q`;
export const scalesName = (tensor: string) => `${tensor}:scales`;

const FLOAT: ReadonlySet<SafetensorsDtype> = new Set(['F32', 'F16', 'BF16']);

export const sameConversion = (a: TensorConversion, b: TensorConversion): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

function checkSource(t: TensorSource, c: TensorConversion): void {
  if (c.kind !== 'keep' && !FLOAT.has(t.dtype))
    throw new Error(`tensor "${t.name}": dtype ${t.dtype} cannot become ${c.kind} (it must be F32, F16 or BF16)`);
  if ((c.kind === 'int8-rows' || c.kind === 'blocks') && t.shape.length !== 2)
    throw new Error(`tensor "${t.name}": shape [${t.shape.join(', ')}] is not a (rows, k) weight to quantize`);
}

/** the parts a tensor converts to, without their bytes (a converted file's header is written before any tensor arrives) */
export function convertedLayout(t: TensorSource, c: TensorConversion): PartLayout[] {
  checkSource(t, c);
  switch (c.kind) {
    case 'keep':
      return [{ name: t.name, dtype: t.dtype, shape: t.shape }];
    case 'float16':
      return [{ name: t.name, dtype: 'F16', shape: t.shape }];
    default: {
      const [rows, k] = t.shape as [number, number];
      const per = quantizedRow(c, k);
      return [
        c.kind === 'int8-rows'
          ? { name: quantizedName(t.name), dtype: 'I8', shape: [rows, k] }
          : { name: quantizedName(t.name), dtype: 'U8', shape: [rows, per.qBytes] },
        { name: scalesName(t.name), dtype: 'F32', shape: [rows * per.scales] },
      ];
    }
  }
}

/** 16-bit words of little-endian bytes (copied when they are not 2-byte aligned) */
const words = (b: Uint8Array): Uint16Array =>
  b.byteOffset % 2 ? new Uint16Array(b.slice().buffer) : new Uint16Array(b.buffer, b.byteOffset, b.length / 2);

const bytesOf = (a: Uint16Array | Float32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function float16Bytes(t: TensorSource, bytes: Uint8Array): Uint8Array {
  if (t.dtype === 'F16') return bytes;
  if (t.dtype === 'BF16') return bytesOf(bf16ToF16(words(bytes)));
  return bytesOf(f32ToF16(floatValues(t.dtype, bytes)));
}

/** the tensor's stored bytes converted: its parts, in the order convertedLayout lists them */
export function convertTensor(t: TensorSource, bytes: Uint8Array, c: TensorConversion): ConvertedPart[] {
  const layout = convertedLayout(t, c);
  if (c.kind === 'keep') return [{ ...layout[0]!, bytes }];
  if (c.kind === 'float16') return [{ ...layout[0]!, bytes: float16Bytes(t, bytes) }];
  const [rows, k] = t.shape as [number, number];
  const { q, scales } = quantizeWeight(floatValues(t.dtype, bytes), rows, k, c);
  return [
    { ...layout[0]!, bytes: q },
    { ...layout[1]!, bytes: bytesOf(scales) },
  ];
}
