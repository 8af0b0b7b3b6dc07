// Fuzz runs over everything the model reads from untrusted files, complementing the byte-flip fuzz
// in safetensors/read.test.ts: generated safetensors headers (wrong dtypes, huge or negative
// shapes, overlapping, reversed and out-of-range offsets), random whole files and header lengths,
// config.json values and shard indexes. Each input either parses into something consistent or
// fails with the module's own error naming the file, quickly (no hang, no RangeError).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONSISID_TINY_CONFIG } from './demo-checkpoints.ts';
import { ConfigError, parseConfig } from '../../graph/config.ts';
import { DTYPE_BYTES } from '../../io/safetensors/dtype.ts';
import { parseShardIndex } from '../../io/safetensors/index-file.ts';
import { entryToHost, parseSafetensors, SafetensorsError } from '../../io/safetensors/read.ts';

const FILE = 'fuzz.safetensors';

function withHeader(header: string, data: Uint8Array, claimedLength?: bigint): Uint8Array {
  const json = new TextEncoder().encode(header);
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, claimedLength ?? BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

/** Parses, then checks the result is consistent; a throw must be a SafetensorsError naming the file. */
function parseChecked(bytes: Uint8Array) {
  try {
    const parsed = parseSafetensors(bytes, FILE);
    const spans: [number, number][] = [];
    for (const e of parsed.tensors.values()) {
      expect(e.bytes.byteOffset).toBeGreaterThanOrEqual(bytes.byteOffset);
      expect(e.bytes.byteOffset + e.bytes.length).toBeLessThanOrEqual(bytes.byteOffset + bytes.length);
      expect(e.bytes.length).toBe(e.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[e.dtype]);
      spans.push([e.bytes.byteOffset, e.bytes.byteOffset + e.bytes.length]);
      try {
        const host = entryToHost(e, FILE);
        expect(host.data.length).toBe(e.shape.reduce((a, b) => a * b, 1));
      } catch (err) {
        expect(err, String(err)).toBeInstanceOf(SafetensorsError);
      }
    }
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  } catch (err) {
    if (!(err instanceof SafetensorsError)) throw err;
    expect(err.message.startsWith(`${FILE}: `)).toBe(true);
  }
}

const dtype = fc.oneof(
  fc.constantFrom(...Object.keys(DTYPE_BYTES)),
  fc.constantFrom('F8', 'f32', '', 'Q4'),
  fc.anything(),
);
const dim = fc.oneof(fc.nat(6), fc.constantFrom(0, -1, 1.5, 2 ** 40, 2 ** 53, Number.MAX_SAFE_INTEGER), fc.anything());
const offset = fc.oneof(fc.nat(256), fc.constantFrom(-1, 0.5, 2 ** 32, 2 ** 53, Number.MAX_SAFE_INTEGER));
const entry = fc.oneof(
  fc.record({ dtype, shape: fc.array(dim, { maxLength: 4 }), data_offsets: fc.tuple(offset, offset) }),
  // Consistent-looking entries (small shapes whose byte count fits the offsets) to reach the overlap check.
  fc
    .tuple(
      fc.constantFrom('F32', 'F16', 'BF16', 'I64', 'I32', 'U8', 'I8'),
      fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }),
      fc.nat(64),
    )
    .map(([d, shape, begin]) => ({
      dtype: d,
      shape,
      data_offsets: [begin, begin + shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[d as keyof typeof DTYPE_BYTES]],
    })),
  fc.anything(),
);
const header = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constant('__metadata__')), entry, { maxKeys: 5 });

describe('fuzz: safetensors reader', () => {
  it('generated headers: consistent tensors (in bounds, sized by shape, no overlap) or a SafetensorsError', () => {
    fc.assert(
      fc.property(header, fc.uint8Array({ maxLength: 300 }), (h, data) =>
        parseChecked(withHeader(JSON.stringify(h), data)),
      ),
      { numRuns: 300 },
    );
  });

  it('random files and random claimed header lengths (up to 2^64 - 1) fail fast without allocating the claim', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => parseChecked(bytes)),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.string({ maxLength: 40 }), (claimed, text) =>
        parseChecked(withHeader(text, new Uint8Array(4), claimed)),
      ),
      { numRuns: 200 },
    );
  });

  it('a header that is valid JSON but deeply nested or huge in count still fails cleanly', () => {
    parseChecked(withHeader(`${'['.repeat(5000)}${']'.repeat(5000)}`, new Uint8Array(0)));
    const many = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`t${i}`, { dtype: 'U8', shape: [1], data_offsets: [0, 1] }]),
    );
    expect(() => parseSafetensors(withHeader(JSON.stringify(many), new Uint8Array(1)), FILE)).toThrow(/overlap/);
  });
});

describe('fuzz: config.json and shard index', () => {
  it('parseConfig on arbitrary JSON values: a config or a ConfigError, never anything else', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        try {
          parseConfig(raw, 'fuzz/config.json');
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          expect((err as Error).message).toMatch(/^invalid ConsisID fuzz\/config\.json:\n {2}- /);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a valid config with one parameter replaced: still valid, or a ConfigError naming that parameter', () => {
    const keys = Object.keys(CONSISID_TINY_CONFIG);
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 0, 1e9, 0.5, '', null)),
        (key, value) => {
          try {
            const c = parseConfig({ ...CONSISID_TINY_CONFIG, [key]: value }, 'config.json');
            expect(typeof c.num_layers).toBe('number');
          } catch (err) {
            expect(err).toBeInstanceOf(ConfigError);
            expect((err as Error).message).toContain(key.startsWith('_') ? '' : key.split('_')[0]!);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('parseShardIndex on arbitrary text and JSON: an index of plain .safetensors names or an error naming the file', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.dictionary(fc.string(), fc.string()).map((m) => JSON.stringify({ weight_map: m })),
    );
    fc.assert(
      fc.property(text, (t) => {
        try {
          const index = parseShardIndex(t, 'idx.json');
          for (const shard of Object.values(index.weight_map)) {
            expect(shard).toMatch(/\.safetensors$/);
            expect(shard).not.toMatch(/[/\\]|^\./);
          }
        } catch (err) {
          expect((err as Error).message.startsWith('idx.json: ')).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
