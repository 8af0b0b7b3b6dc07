import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint, type Checkpoint } from '../models/consisid/load-checkpoint.ts';
import { localSource } from '../io/local-source.ts';
import { memorySource } from '../io/memory-source.ts';
import { memoryCache } from '../cache/memory-cache.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import { wrappedCache } from '../test-support/wrapped-cache.ts';
import { writeCheckpointFiles } from '../models/consisid/checkpoint-writer.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { formatBytes } from '../plan/format-bytes.ts';
import { fixtureDir } from '../test-support/fixtures.ts';
import type { ConversionPlan } from './conversion-plan.ts';
import type { ConvertedCheckpoint } from './converted-checkpoint.ts';
import { ConvertedMemoryError } from './memory-fallback.ts';
import { weightConverter, type ConvertSource } from './weight-converter.ts';

const CHUNK = 4096;

/** the tiny config's random bfloat16 weights in two shards */
async function twoShards(): Promise<{ checkpoint: Checkpoint; files: Map<string, Uint8Array> }> {
  const { config } = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
  const written = writeCheckpointFiles({ ...config }, randomWeights(config, 3, 'bfloat16'), { shards: 2 });
  return {
    checkpoint: await loadCheckpoint(memorySource(written)),
    files: new Map(written.map((f) => [f.path, f.bytes])),
  };
}

/** the files as streams, counting the streams started per file */
function counted(files: Map<string, Uint8Array>): ConvertSource & { streams: Map<string, number> } {
  const streams = new Map<string, number>();
  return {
    streams,
    identity: (name) => ({ url: `mem://${name}`, etag: '"1"', size: files.get(name)!.length }),
    stream(name) {
      streams.set(name, (streams.get(name) ?? 0) + 1);
      return new Blob([files.get(name)!.slice()]).stream();
    },
  };
}

const quota = () => new DOMException('the quota is used up', 'QuotaExceededError');

/** a cache in memory whose writes (and new entries) are refused from the `writes`-th write on */
function refusingAfter(writes: number, streams: () => number) {
  const inner = memoryCache();
  const state = { writes: 0, refused: false, streamsAtRefusal: 0, completeBefore: new Set<string>() };
  const refuse = () => {
    if (!state.refused) state.streamsAtRefusal = streams();
    state.refused = true;
    return Promise.reject(quota());
  };
  const wrapped = wrappedCache(inner, (v, f) => ({
    write: (i, body) => (state.writes++ >= writes ? refuse() : f.write(i, body)),
    markComplete: async () => {
      await f.markComplete();
      if (!state.refused) state.completeBefore.add(v.url);
    },
  }));
  const cache: WeightCache = {
    ...wrapped,
    put: (v) => (state.refused || state.writes >= writes ? refuse() : wrapped.put(v)),
  };
  return { cache, state };
}

const planOf = (ck: Checkpoint): ConversionPlan =>
  new Map(
    [...ck.weights].map(([name, e]) => [
      name,
      e.shape.length === 2 ? { kind: 'blocks', bits: 4, block: 32 } : { kind: 'keep' },
    ]),
  );

/** every converted tensor part's bytes, by name */
async function partsOf(c: ConvertedCheckpoint) {
  const out: Record<string, number[]> = {};
  for (const [name, e] of c.weights) out[name] = [...(await c.files.get(e.fileName)!.read(e.offset, e.length))];
  return out;
}

describe('converted weights the browser cache cannot store', () => {
  it('a cache that starts refusing writes at any point: the run completes within the memory budget, or stops at once with the sizes and the cause', async () => {
    const { checkpoint, files } = await twoShards();
    const plan = planOf(checkpoint);
    const reference = await weightConverter(counted(files), { cache: memoryCache(), chunkBytes: CHUNK }).convert(
      'int4',
      plan,
      checkpoint,
    );
    const want = await partsOf(reference);
    const sizes = new Map(
      [...files.keys()].flatMap((n) => {
        const f = reference.files.get(`int4/${n}`);
        return f ? [[`mem://${n}#converted-int4`, f.size] as const] : [];
      }),
    );
    expect(sizes.size).toBe(2);
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const writes = Math.ceil(total / CHUNK) + 2;
    await fc.assert(
      fc.asyncProperty(fc.nat(writes), fc.nat(total + CHUNK), async (refuseAt, budget) => {
        const src = counted(files);
        const streams = () => [...src.streams.values()].reduce((a, b) => a + b, 0);
        const { cache, state } = refusingAfter(refuseAt, streams);
        const held = { held: 0, peak: 0 };
        const errors: string[] = [];
        const converter = weightConverter(src, {
          cache,
          chunkBytes: CHUNK,
          memoryBudget: budget,
          held,
          onCacheError: (e) => errors.push(e.message),
        });
        const got = await converter.convert('int4', plan, checkpoint).catch((e: unknown) => e);
        expect(held.peak).toBeLessThanOrEqual(budget);
        if (!state.refused) {
          expect(got).not.toBeInstanceOf(Error);
          expect(held.peak).toBe(0);
          return;
        }
        expect(errors).toEqual(['the quota is used up']);
        // what the cache held whole before it refused is read from it, never streamed again
        for (const url of state.completeBefore) expect(src.streams.get(url.slice(6, url.indexOf('#')))).toBe(1);
        const inMemory = [...sizes].reduce((n, [url, size]) => n + (state.completeBefore.has(url) ? 0 : size), 0);
        if (inMemory <= budget) {
          expect(got).not.toBeInstanceOf(Error);
          expect(await partsOf(got as ConvertedCheckpoint)).toEqual(want);
        } else {
          expect(got).toBeInstanceOf(ConvertedMemoryError);
          const message = (got as Error).message;
          expect(message).toContain('the quota is used up');
          expect(message).toContain(formatBytes(inMemory));
          expect(message).toContain(formatBytes(budget));
          // stopped at once: no file streamed after the refusal
          expect(streams()).toBe(state.streamsAtRefusal);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('no browser cache at all: weights within the budget convert in memory; past it nothing is downloaded', async () => {
    const { checkpoint, files } = await twoShards();
    const plan = planOf(checkpoint);
    const fine = counted(files);
    const held = { held: 0, peak: 0 };
    const got = await weightConverter(fine, { cache: null, chunkBytes: CHUNK, held }).convert('int4', plan, checkpoint);
    const total = [...got.files.keys()]
      .filter((n) => n.startsWith('int4/'))
      .reduce((n, name) => n + got.files.get(name)!.size, 0);
    expect(held.peak).toBe(total);
    const none = counted(files);
    const refused = weightConverter(none, { cache: null, chunkBytes: CHUNK, memoryBudget: total - 1 });
    await expect(refused.convert('int4', plan, checkpoint)).rejects.toThrow(
      `the ${formatBytes(total)} of them it does not hold would pass the ${formatBytes(total - 1)}`,
    );
    expect(none.streams.size).toBe(0);
  });
});
