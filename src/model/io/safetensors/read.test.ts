import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { entryToFloat32, entryToHost, parseSafetensors, SafetensorsError } from './read.ts';
import { writeSafetensors } from './write.ts';
import { f32ToF16 } from './dtype.ts';

function fileWithHeader(header: unknown, dataBytes: number, headerLength?: number): Uint8Array {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + dataBytes);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerLength ?? json.length), true);
  out.set(json, 8);
  return out;
}

describe('safetensors reader', () => {
  it('round-trips F32, F16, I64 and metadata through the writer', () => {
    const bytes = writeSafetensors(
      {
        a: { dtype: 'float32', shape: [2, 3], data: Float32Array.from([1, 2, 3, 4, 5, 6]) },
        h: { dtype: 'float16', shape: [2], data: f32ToF16(Float32Array.from([0.5, -2])) },
        t: { dtype: 'int64', shape: [1], data: BigInt64Array.from([999n]) },
      },
      { format: 'pt' },
    );
    const f = parseSafetensors(bytes, 'x.safetensors');
    expect(f.metadata).toEqual({ format: 'pt' });
    expect(Array.from(entryToFloat32(f.tensors.get('a')!, 'x'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Array.from(entryToFloat32(f.tensors.get('h')!, 'x'))).toEqual([0.5, -2]);
    expect(entryToHost(f.tensors.get('t')!, 'x').data).toEqual(BigInt64Array.from([999n]));
    expect((8 + Number(new DataView(bytes.buffer).getBigUint64(0, true))) % 8).toBe(0);
  });

  it('decodes BF16', () => {
    const bits = new Uint16Array([0x3f80, 0xc000]);
    const file = fileWithHeader({ b: { dtype: 'BF16', shape: [2], data_offsets: [0, 4] } }, 4);
    file.set(new Uint8Array(bits.buffer), file.length - 4);
    expect(Array.from(entryToFloat32(parseSafetensors(file, 'b').tensors.get('b')!, 'b'))).toEqual([1, -2]);
  });

  it('rejects a truncated file, naming it', () => {
    expect(() => parseSafetensors(new Uint8Array(5), 'w.safetensors')).toThrow(/w\.safetensors: truncated/);
    const good = writeSafetensors({ a: { dtype: 'float32', shape: [4], data: new Float32Array(4) } });
    expect(() => parseSafetensors(good.subarray(0, good.length - 3), 'w.safetensors')).toThrow(
      /w\.safetensors: tensor "a": data_offsets \[0, 16\] lie outside/,
    );
    expect(() => parseSafetensors(good.subarray(0, 20), 'w.safetensors')).toThrow(/truncated, header says/);
  });

  it('rejects an oversized header length before reading it', () => {
    const f = fileWithHeader({}, 0, 2 ** 40);
    expect(() => parseSafetensors(f, 'big.safetensors')).toThrow(
      /big\.safetensors: header of 1099511627776 bytes exceeds/,
    );
  });

  it('rejects overlapping offsets, naming both tensors', () => {
    const f = fileWithHeader(
      { a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] } },
      12,
    );
    expect(() => parseSafetensors(f, 'o.safetensors')).toThrow(
      /o\.safetensors: tensors "a" \[0, 8\] and "b" \[4, 12\] overlap/,
    );
  });

  it('rejects unknown dtypes and dtype/shape/length disagreement', () => {
    expect(() =>
      parseSafetensors(fileWithHeader({ a: { dtype: 'F8', shape: [1], data_offsets: [0, 1] } }, 1), 'd'),
    ).toThrow(/d: tensor "a": invalid header entry \(dtype/);
    expect(() =>
      parseSafetensors(fileWithHeader({ a: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, 8), 'd'),
    ).toThrow(/tensor "a": F32 shape \[3\] needs 12 bytes but data_offsets span 8/);
    expect(() =>
      parseSafetensors(fileWithHeader({ a: { dtype: 'F32', shape: [-1], data_offsets: [0, 4] } }, 4), 'd'),
    ).toThrow(/tensor "a"/);
    expect(() =>
      parseSafetensors(fileWithHeader({ a: { dtype: 'F32', shape: [1], data_offsets: [8, 4] } }, 8), 'd'),
    ).toThrow(/reversed/);
    expect(() =>
      entryToHost(
        parseSafetensors(fileWithHeader({ a: { dtype: 'I8', shape: [1], data_offsets: [0, 1] } }, 1), 'd').tensors.get(
          'a',
        )!,
        'd',
      ),
    ).toThrow(/dtype I8 is not supported/);
  });

  it('rejects headers that are not JSON objects', () => {
    expect(() => parseSafetensors(fileWithHeader('{"a": ', 0), 'j')).toThrow(/j: header is not valid UTF-8 JSON/);
    expect(() => parseSafetensors(fileWithHeader('[1,2]', 0), 'j')).toThrow(/j: header must be a JSON object/);
    expect(() => parseSafetensors(fileWithHeader({ __metadata__: { a: 1 } }, 0), 'j')).toThrow(/__metadata__/);
  });

  it('fuzz: corrupted files either parse into in-bounds views or throw a SafetensorsError', () => {
    const base = writeSafetensors({
      a: { dtype: 'float32', shape: [3, 2], data: new Float32Array(6) },
      b: { dtype: 'float16', shape: [5], data: new Uint16Array(5) },
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.nat(base.length),
        (edits, cut) => {
          const f = base.slice(0, Math.max(cut, 0) || base.length);
          for (const [i, v] of edits) if (i < f.length) f[i] = v;
          try {
            const parsed = parseSafetensors(f, 'fuzz');
            for (const e of parsed.tensors.values()) {
              expect(e.bytes.byteOffset + e.bytes.length).toBeLessThanOrEqual(f.byteOffset + f.length);
            }
          } catch (e) {
            expect(e).toBeInstanceOf(SafetensorsError);
            expect((e as Error).message).toMatch(/^fuzz/);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
