// Minimal protobuf writer. Messages are lists of byte chunks so that large tensor payloads are
// copied exactly once, when the final buffer is assembled.

export interface Encoded {
  readonly parts: Uint8Array[];
  readonly length: number;
}

const textEncoder = new TextEncoder();

function varintBytes(value: number | bigint): Uint8Array {
  let v = typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
  // Negative int64 values are encoded as their 64-bit two's complement (10 bytes).
  if (v < 0n) v = (1n << 64n) + v;
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

function smallVarint(value: number): Uint8Array {
  if (value >= 0 && value < 0x80) return Uint8Array.of(value);
  return varintBytes(value);
}

export class MessageWriter {
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  private tag(field: number, wire: number): void {
    this.push(smallVarint((field << 3) | wire));
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.push(varintBytes(value));
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.push(smallVarint(value.length));
    if (value.length) this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, textEncoder.encode(value));
  }

  message(field: number, value: Encoded): this {
    this.tag(field, 2);
    this.push(smallVarint(value.length));
    for (const p of value.parts) this.push(p);
    return this;
  }

  packedInts(field: number, values: readonly (number | bigint)[]): this {
    const inner = values.map(varintBytes);
    const total = inner.reduce((s, b) => s + b.length, 0);
    this.tag(field, 2);
    this.push(smallVarint(total));
    for (const b of inner) this.push(b);
    return this;
  }

  packedFloats(field: number, values: readonly number[]): this {
    const b = new Uint8Array(values.length * 4);
    const dv = new DataView(b.buffer);
    values.forEach((v, i) => dv.setFloat32(i * 4, v, true));
    return this.bytes(field, b);
  }

  finish(): Encoded {
    return { parts: this.parts, length: this.length };
  }
}

export function concatEncoded(e: Encoded): Uint8Array {
  const out = new Uint8Array(e.length);
  let o = 0;
  for (const p of e.parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
