// Decoded frames as PNG files (8-bit RGB), with node:zlib for the compression: no image library.
import { deflateSync } from 'node:zlib';
import { toByte, type Tensor5 } from './video-tensor.ts';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** an 8-bit RGB PNG of `rgb` (height x width x 3 bytes, row by row) */
export function encodePng(rgb: Uint8Array, width: number, height: number): Uint8Array {
  if (rgb.length !== width * height * 3) throw new Error(`png: ${rgb.length} bytes for ${width} x ${height} RGB`);
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, adaptive filtering (none used), no interlace
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** frame t of video b of a sample (B, 3, T, H, W) as RGB bytes */
export function frameRgb(sample: Tensor5, b: number, t: number): Uint8Array {
  const [, c, frames, h, w] = sample.dims;
  if (c !== 3) throw new Error(`frames: the sample has ${c} channels, PNG frames need 3`);
  const out = new Uint8Array(h * w * 3);
  for (let ch = 0; ch < 3; ch++) {
    const base = ((b * c + ch) * frames + t) * h * w;
    for (let i = 0; i < h * w; i++) out[i * 3 + ch] = toByte(sample.data[base + i]!);
  }
  return out;
}
