import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryCache } from '../test-support/memory-cache.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import { wrappedCache } from '../test-support/wrapped-cache.ts';
import { conversionPlan } from './conversion-plan.ts';
import { weightConverter } from './weight-converter.ts';
import {
  bf16Checkpoint,
  buildFor,
  convertedBytes,
  convertedSession,
  initializerBytes,
  pieces,
} from '../test-support/converted-checkpoints.ts';

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

/** the session's bytes over the converted weights, or the error that stopped it */
const attempt = (run: Promise<Map<string, Uint8Array>>) =>
  run.then(
    (bytes) => ({ bytes }),
    (error: Error) => ({ error }),
  );

/** the tensors whose bytes differ */
const sameAs = (want: Map<string, Uint8Array>, got: Map<string, Uint8Array>) =>
  [...want].filter(([name, b]) => !Buffer.from(b).equals(Buffer.from(got.get(name)!))).map(([name]) => name);

const REFUSAL = /could not read back its converted weights .*; they are removed, and the next run converts them anew/;

describe('a stored converted chunk that cannot be read back', () => {
  it('fails the run saying so and drops its entry, the others kept; the next run converts it anew: the same session weights', async () => {
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
        const got = await attempt(
          convertedBytes(build, checkpoint, precision, pieces(files), faulty.cache, chunkBytes),
        );
        // a session's read fails saying so, its entry dropped; a header that cannot be read is converted anew at once
        if ('error' in got) {
          expect(got.error.message).toMatch(REFUSAL);
          const left = await Promise.all(versions.map((v) => cache.match(v)));
          expect(versions.some((v, i) => faulty.fired.has(v.url) && left[i] === null)).toBe(true);
        } else expect(sameAs(want, got.bytes)).toEqual([]);
        const again = await convertedBytes(build, checkpoint, precision, pieces(files), cache, chunkBytes);
        expect(sameAs(want, again)).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});

describe('a stored converted chunk whose bytes changed in place', () => {
  it('is found by its checksum: any single flipped byte fails the run (or, in the header, is converted anew at once); the next run converts it anew', async () => {
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
          const got = await attempt(convertedBytes(build, checkpoint, precision, source, damaged, chunkBytes));
          // a session's read fails saying so; a damaged header is found before the session and converted anew
          if ('error' in got) expect(got.error.message).toMatch(REFUSAL);
          else expect(sameAs(want, got.bytes)).toEqual([]);
          // the other entry stays
          for (const e of entries) if (e !== hit) expect((await damaged.match(e.meta))?.complete).toBe(true);
          const again = await convertedBytes(build, checkpoint, precision, source, damaged, chunkBytes);
          expect(sameAs(want, again)).toEqual([]);
          expect(source.streamed).toBeGreaterThan(0);
        },
      ),
      { numRuns: 8 },
    );
  });
});
