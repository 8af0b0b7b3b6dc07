import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint, type Checkpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { memorySource } from '../io/memory-source.ts';
import { memoryCache } from '../cache/memory-cache.ts';
import { writeCheckpointFiles } from '../models/consisid/checkpoint-writer.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { buildConsisIDGraph } from '../graph/transformer.ts';
import { prepareForward } from '../models/consisid/forward-inputs.ts';
import { sessionModel } from '../runtime/session-model.ts';
import { computeDtypeFor, quantizationFor, type WeightPrecision } from '../plan/precision.ts';
import { ConsisIDTransformer3DModel } from '../models/consisid/consisid-model.ts';
import { nodeBackend } from '../runtime/node.ts';
import type { SessionModel } from '../runtime/types.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import { wrappedCache } from '../test-support/wrapped-cache.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import { fixtureDir, loadFixture, relativeError } from '../test-support/fixtures.ts';
import { convertedWeights } from './converted-session.ts';
import type { WeightConverter } from './weight-converter.ts';
import { conversionPlan } from './conversion-plan.ts';
import { weightConverter, type ConvertSource } from './weight-converter.ts';

const fixture = loadFixture('tiny-face');

/** the tiny identity-module config with random bfloat16 weights in two shards, as published checkpoints are */
async function bf16Checkpoint(): Promise<{ checkpoint: Checkpoint; files: Map<string, Uint8Array> }> {
  const { config } = await loadCheckpoint(localSource(fixtureDir('tiny-face')));
  const written = writeCheckpointFiles({ ...config }, randomWeights(config, 11, 'bfloat16'), { shards: 2 });
  const checkpoint = await loadCheckpoint(memorySource(written));
  return { checkpoint, files: new Map(written.map((f) => [f.path, f.bytes])) };
}

/** the files by Range-like pieces of `piece` bytes, counting the bytes streamed */
function pieces(files: Map<string, Uint8Array>, piece = 997): ConvertSource & { streamed: number } {
  const src = {
    streamed: 0,
    identity: (name: string) => ({ url: `mem://${name}`, etag: '"1"', size: files.get(name)!.length }),
    stream(name: string) {
      const bytes = files.get(name)!;
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (at >= bytes.length) return c.close();
          const next = bytes.slice(at, at + piece);
          src.streamed += next.length;
          at += next.length;
          c.enqueue(next);
        },
      });
    },
  };
  return src;
}

/** each initializer's bytes by name, wherever the session model keeps them */
async function initializerBytes(m: SessionModel): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (const t of m.model.graph.initializers) {
    if (t.raw) out.set(t.name, t.raw);
    if (!t.external) continue;
    const s = m.externalData.get(t.external.location)!;
    const { offset, length } = t.external;
    if (s.kind === 'bytes') out.set(t.name, s.data.slice(offset, offset + length));
    if (s.kind === 'blob') out.set(t.name, new Uint8Array(await s.data.slice(offset, offset + length).arrayBuffer()));
  }
  return out;
}

const buildFor = (ck: Checkpoint, precision: WeightPrecision) => (weights: WeightSet) =>
  buildConsisIDGraph(ck.config, weights, prepareForward(ck.config, fixture.args).shape, {
    dtype: computeDtypeFor(precision, undefined),
    quantization: quantizationFor(precision, 'cpu'),
  });

/** the fixture's forward on onnxruntime-node, with the weights made at session creation and converted as they stream in */
async function forwards(precision: 'float16' | 'int4') {
  const { checkpoint, files } = await bf16Checkpoint();
  const runtime = { backend: nodeBackend(), device: 'cpu' as const, dtype: computeDtypeFor(precision, undefined) };
  const converter = weightConverter(pieces(files), { cache: memoryCache() });
  const plain = ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, { ...runtime, weights: precision });
  const streamed = ConsisIDTransformer3DModel.fromCheckpoint(checkpoint, { ...runtime, weights: precision, converter });
  try {
    const computed = (await plain.forward(fixture.args)).sample.data as Float32Array;
    const converted = (await streamed.forward(fixture.args)).sample.data as Float32Array;
    return { checkpoint, converter, computed, converted };
  } finally {
    await plain.release();
    await streamed.release();
  }
}

/** the session model of `build` over the converted weights, as the model makes its whole graph's (consisid-model.ts graphFor) */
async function convertedSession(
  build: ReturnType<typeof buildFor>,
  checkpoint: Checkpoint,
  precision: WeightPrecision,
  converter: WeightConverter,
): Promise<SessionModel> {
  const { weights, files, precomputed } = await convertedWeights(
    build(checkpoint.weights).model,
    checkpoint,
    precision,
    converter,
  );
  return sessionModel(build(weights).model, files, { precomputed });
}

/** the initializers' bytes of the session model over the weights converted from `source` through `cache` */
const convertedBytes = async (
  build: ReturnType<typeof buildFor>,
  checkpoint: Checkpoint,
  precision: WeightPrecision,
  source: ConvertSource,
  cache: WeightCache,
  chunkBytes: number,
) =>
  initializerBytes(
    await convertedSession(build, checkpoint, precision, weightConverter(source, { cache, chunkBytes })),
  );

describe('weights converted as they stream in, in place of computing them when the session is made', () => {
  for (const precision of ['int8', 'int4'] as const)
    it(`${precision}: the session model is byte for byte the one computed from the checkpoint`, async () => {
      const { checkpoint, files } = await bf16Checkpoint();
      const build = buildFor(checkpoint, precision);
      const computed = await sessionModel(build(checkpoint.weights).model, checkpoint.files);
      const converter = weightConverter(pieces(files), { cache: memoryCache(), chunkBytes: 5000 });
      // the checkpoint's own files are never read: every tensor comes converted
      const unread = new Map(
        [...checkpoint.files].map(([k, f]) => [
          k,
          {
            ...f,
            bytes: undefined,
            read: () => Promise.reject(new Error(`${k} was read`)),
          },
        ]),
      );
      const converted = await convertedSession(build, { ...checkpoint, files: unread }, precision, converter);
      expect(converted.model.graph.nodes).toEqual(computed.model.graph.nodes);
      const want = await initializerBytes(computed);
      const got = await initializerBytes(converted);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      const differ = [...want].filter(([name, b]) => !Buffer.from(b).equals(Buffer.from(got.get(name)!)));
      expect(differ.map(([name]) => name)).toEqual([]);
      // the quantized products are there (identity at 8 bits, the rest at 4 for int4), none computed from the checkpoint
      const quantized = converted.model.graph.initializers.filter((t) => /weight_(int8|q4)$/.test(t.name));
      expect(quantized.length).toBeGreaterThan(20);
      expect([...converted.externalData.keys()].filter((k) => checkpoint.files.has(k))).toEqual([]);
    });

  it('float16: bfloat16 tensors become float16 before the session (no Cast left), the forward as the computed path', async () => {
    const { checkpoint, converter, computed, converted } = await forwards('float16');
    expect(relativeError(converted, computed)).toBeLessThan(1e-6);
    const build = buildFor(checkpoint, 'float16');
    const model = await convertedSession(build, checkpoint, 'float16', converter);
    const casts = (m: SessionModel['model']) => m.graph.nodes.filter((n) => n.opType === 'Cast').length;
    expect(casts(build(checkpoint.weights).model) - casts(model.model)).toBeGreaterThan(50);
  });

  it('int4 on onnxruntime-node: the same output as the weights quantized at session creation', async () => {
    const { computed, converted } = await forwards('int4');
    expect(converted).toEqual(computed);
  });
});

describe('bfloat16 tensors widened when the session is made (WebGPU has no bfloat16 Cast)', () => {
  it("give the Cast graph's output exactly, hold no bfloat16 initializer, and are converted like the tensors they widen", async () => {
    const { checkpoint: ck } = await bf16Checkpoint();
    const shape = prepareForward(ck.config, fixture.args).shape;
    const build = (widenBfloat16: boolean, precision: WeightPrecision = 'float32') =>
      buildConsisIDGraph(ck.config, ck.weights, shape, {
        quantization: quantizationFor(precision, 'cpu'),
        widenBfloat16,
      }).model;
    const [cast, widened] = [build(false), build(true)];
    const bf16 = (m: typeof cast) => m.graph.initializers.filter((t) => t.type === 'bfloat16').length;
    expect(bf16(cast)).toBeGreaterThan(0);
    expect(bf16(widened)).toBe(0);
    const backend = nodeBackend();
    const run = async (m: typeof cast) => {
      const s = await backend.createSession(await sessionModel(m, ck.files), { device: 'cpu' });
      try {
        return (await s.run(prepareForward(ck.config, fixture.args).feeds)).sample!.data;
      } finally {
        await s.release();
      }
    };
    expect(await run(widened)).toEqual(await run(cast));
    const planned = (m: typeof cast) => [...conversionPlan(m, ck.weights, 'int4')].sort();
    expect(planned(build(true, 'int4'))).toEqual(planned(build(false, 'int4')));
  });
});

type Fault = { file: number; chunk: number; after: number; kind: 'throw' | 'truncate' | 'evict' };

/**
 * The cache with faults in reads of the converted entries (`urls[fault.file]`): from the read after
 * the `after`-th of a chunk on, the storage fails, the read comes back short, or the entry is found
 * evicted. `fired`: the entries whose reads failed. Lookups and writes are the cache's own.
 */
function faultyCache(cache: WeightCache, faults: readonly Fault[], urls: readonly string[]) {
  const reads = new Map<string, number>();
  const fired = new Set<string>();
  const faulty = wrappedCache(cache, (v, f) => ({
    async read(i, from, to) {
      const key = `${v.url} ${i}`;
      const n = (reads.get(key) ?? 0) + 1;
      reads.set(key, n);
      const fault = faults.find((x) => urls[x.file] === v.url && x.chunk === i && n > x.after);
      if (fault) fired.add(v.url);
      if (fault?.kind === 'throw') throw new DOMException('the file could not be read', 'NotReadableError');
      if (fault?.kind === 'evict') {
        await cache.delete(v);
        throw new DOMException(`chunk ${i} was evicted`, 'NotFoundError');
      }
      const bytes = await f.read(i, from, to);
      return fault ? bytes.subarray(0, Math.max(0, bytes.length - 1 - (i % 7))) : bytes;
    },
  }));
  return { cache: faulty, fired };
}

describe('a stored converted chunk that cannot be read back', () => {
  it('is computed again from the checkpoint: the same session weights, the bad entry gone, the others kept', async () => {
    const { checkpoint, files } = await bf16Checkpoint();
    const precision = 'int4';
    const build = buildFor(checkpoint, precision);
    const chunkBytes = 3000;
    const clean = await convertedSession(
      build,
      checkpoint,
      precision,
      weightConverter(pieces(files), { cache: memoryCache(), chunkBytes }),
    );
    const want = await initializerBytes(clean);
    const names = [...checkpoint.files.keys()];
    const urls = names.map((n) => `mem://${n}#converted-${precision}`);
    const fault = fc.record({
      file: fc.nat(names.length - 1),
      chunk: fc.nat(12),
      after: fc.nat(2),
      kind: fc.constantFrom('throw' as const, 'truncate' as const, 'evict' as const),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fault, { minLength: 1, maxLength: 3 }), async (faults) => {
        // a first visit converts into the cache; the second reads it back through the faults
        const cache = memoryCache();
        const first = await weightConverter(pieces(files), { cache, chunkBytes }).convert(
          precision,
          conversionPlan(build(checkpoint.weights).model, checkpoint.weights, precision),
          checkpoint,
        );
        const versions = names.map((n, i) => ({
          url: urls[i]!,
          etag: '"1" hub-console-converted-v1',
          size: first.files.get(`${precision}/${n}`)!.size,
          chunkBytes,
        }));
        const faulty = faultyCache(cache, faults, urls);
        const source = pieces(files);
        const got = await convertedBytes(build, checkpoint, precision, source, faulty.cache, chunkBytes);
        // nothing streamed whole from the hub: only the tensors of the bad entries were read again
        expect(source.streamed).toBe(0);
        const differ = [...want].filter(([name, b]) => !Buffer.from(b).equals(Buffer.from(got.get(name)!)));
        expect(differ.map(([name]) => name)).toEqual([]);
        for (const v of versions) expect(!!(await cache.match(v))?.complete).toBe(!faulty.fired.has(v.url));
      }),
      { numRuns: 12 },
    );
  });
});

describe('a stored converted chunk whose bytes changed in place', () => {
  it('is found by its checksum and converted again: any single flipped byte, the same session weights as a clean conversion', async () => {
    const { checkpoint, files } = await bf16Checkpoint();
    const precision = 'int4';
    const build = buildFor(checkpoint, precision);
    const plan = conversionPlan(build(checkpoint.weights).model, checkpoint.weights, precision);
    const chunkBytes = 3000;
    // a first visit converts into the cache; every property run damages a copy of it
    const cache = memoryCache();
    await weightConverter(pieces(files), { cache, chunkBytes }).convert(precision, plan, checkpoint);
    const want = await initializerBytes(
      await convertedSession(build, checkpoint, precision, weightConverter(pieces(files), { cache, chunkBytes })),
    );
    const entries = [...cache.entries.values()].filter((e) => e.meta.url.endsWith(`#converted-${precision}`));
    expect(entries).toHaveLength(2);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(entries.length - 1),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (file, chunkAt, byteAt, xor) => {
          const damaged = memoryCache();
          for (const e of entries) {
            const copy = await damaged.put(e.meta);
            for (const [i, bytes] of e.chunks) await copy.write(i, new Blob([bytes]).stream());
            await copy.markComplete();
          }
          const hit = entries[file]!;
          const chunk = [...hit.chunks.values()][chunkAt % hit.chunks.size]!;
          damaged.entries.get(JSON.stringify([hit.meta.url, hit.meta.etag]))!.chunks.get(chunkAt % hit.chunks.size)![
            byteAt % chunk.length
          ]! ^= xor;
          const source = pieces(files);
          const got = await convertedBytes(build, checkpoint, precision, source, damaged, chunkBytes);
          const differ = [...want].filter(([name, b]) => !Buffer.from(b).equals(Buffer.from(got.get(name)!)));
          expect(differ.map(([name]) => name)).toEqual([]);
          // only the damaged file's tensors were read again, none streamed whole; its entry went, the other stayed
          expect(source.streamed).toBe(0);
          for (const e of entries) expect(!!(await damaged.match(e.meta))?.complete).toBe(e !== hit);
        },
      ),
      { numRuns: 8 },
    );
  });
});
