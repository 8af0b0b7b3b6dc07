import { describe, expect, it } from 'vitest';
import { loadCheckpoint, type Checkpoint } from '../models/consisid/load-checkpoint.ts';
import { readSafetensorsHead } from '../io/checkpoint-file.ts';
import { localSource } from '../io/local-source.ts';
import { memorySource } from '../io/memory-source.ts';
import { memoryCache } from '../test-support/memory-cache.ts';
import { cachedVersions, openCache } from '../cache/opfs-cache.ts';
import { browserCache, cachedFiles } from './cached-checkpoint.ts';
import { entriesOf, ROOT } from '../cache/opfs-layout.ts';
import { installMemoryOpfs } from '../test-support/memory-opfs.ts';
import { chunkedHubSource } from '../cache/chunked-hub-source.ts';
import { convertedSource } from './converted-source.ts';
import type { WeightCache } from '../cache/weight-cache.ts';
import { writeCheckpointFiles } from '../models/consisid/checkpoint-writer.ts';
import { randomWeights } from '../models/consisid/random-weights.ts';
import { WEIGHTS_NAME } from '../io/safetensors/index-file.ts';
import { rangeHub } from '../test-support/range-hub.ts';
import { fixtureDir } from '../test-support/fixtures.ts';
import type { ConversionPlan } from './conversion-plan.ts';
import type { TensorConversion } from './tensor-conversion.ts';

/** the tiny config's random bfloat16 weights in one file, served by a hub that honours Range */
async function hubCheckpoint(): Promise<{ checkpoint: Checkpoint; bytes: Uint8Array }> {
  const { config } = await loadCheckpoint(localSource(fixtureDir('tiny-base')));
  const written = writeCheckpointFiles({ ...config }, randomWeights(config, 5, 'bfloat16'));
  const bytes = written.find((f) => f.path === WEIGHTS_NAME)!.bytes;
  return { checkpoint: await loadCheckpoint(memorySource(written)), bytes };
}

/** every 2-D weight as `q`, the rest as `other` */
const planOf = (ck: Checkpoint, q: TensorConversion, other: TensorConversion): ConversionPlan =>
  new Map([...ck.weights].map(([name, e]) => [name, e.shape.length === 2 ? q : other]));

const INT4: TensorConversion = { kind: 'blocks', bits: 4, block: 32 };
const KEEP: TensorConversion = { kind: 'keep' };

function source(hub: ReturnType<typeof rangeHub>, bytes: Uint8Array, cache: WeightCache | null, etag = '"e"') {
  const errors: string[] = [];
  const s = convertedOver(hub, bytes, cache, etag, errors);
  return { converter: s.converter, errors };
}

/** the hub's weight file in chunks of 4 KiB through `cache` (null: uncached) */
const hubFiles = (hub: ReturnType<typeof rangeHub>, bytes: Uint8Array, cache: WeightCache | null, head?: Uint8Array) =>
  chunkedHubSource(hub.repo, [{ name: WEIGHTS_NAME, size: bytes.length, etag: '"e"', head }], {
    cache,
    chunkBytes: 4096,
  });

/** the file streamed through uncached and converted into `cache`, as the preview's worker reads it */
function convertedOver(
  hub: ReturnType<typeof rangeHub>,
  bytes: Uint8Array,
  cache: WeightCache | null,
  etag = '"e"',
  errors: string[] = [],
  head?: Uint8Array,
) {
  const files = chunkedHubSource(hub.repo, [{ name: WEIGHTS_NAME, size: bytes.length, etag, head }], {
    cache: null,
    chunkBytes: 4096,
  });
  return convertedSource(files, cache, 'int4', { chunkBytes: 4096, onCacheError: (e) => errors.push(e.message) });
}

/** every converted tensor part's bytes, by name */
async function partsOf(c: Awaited<ReturnType<ReturnType<typeof source>['converter']['convert']>>) {
  const out: Record<string, number[]> = {};
  for (const [name, e] of c.weights) {
    const f = c.files.get(e.fileName)!;
    out[name] = [...(await f.read(e.offset, Math.min(e.length, 64)))];
  }
  return out;
}

describe('weights converted per precision, kept in the browser cache', () => {
  it('a second load with the same precision downloads nothing; another precision converts anew', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const hub = rangeHub(bytes);
    const cache = memoryCache();
    const first = await source(hub, bytes, cache).converter.convert('int4', planOf(checkpoint, INT4, KEEP), checkpoint);
    const fetched = hub.asked.length;
    expect(fetched).toBeGreaterThan(1);
    // a new visit: a new source over the same cache
    const again = await source(hub, bytes, cache).converter.convert('int4', planOf(checkpoint, INT4, KEEP), checkpoint);
    expect(hub.asked.length).toBe(fetched);
    expect(await partsOf(again)).toEqual(await partsOf(first));
    const plan8 = planOf(checkpoint, { kind: 'int8-rows' }, KEEP);
    const int8 = await source(hub, bytes, cache).converter.convert('int8', plan8, checkpoint);
    expect(hub.asked.length).toBe(2 * fetched);
    expect(int8.covers(plan8)).toBe(true);
    expect(int8.covers(planOf(checkpoint, INT4, KEEP))).toBe(false);
    // both precisions stay: int4 again reads nothing
    await source(hub, bytes, cache).converter.convert('int4', planOf(checkpoint, INT4, KEEP), checkpoint);
    expect(hub.asked.length).toBe(2 * fetched);
  });

  it('a new version of the file on the hub (ETag), or another plan for the precision, converts anew', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const hub = rangeHub(bytes);
    const cache = memoryCache();
    const plan = planOf(checkpoint, INT4, KEEP);
    await source(hub, bytes, cache).converter.convert('int4', plan, checkpoint);
    const once = hub.asked.length;
    const changed = rangeHub(bytes, { etagAfter: { request: 1, etag: '"f"' } });
    await source(changed, bytes, cache, '"f"').converter.convert('int4', plan, checkpoint);
    expect(changed.asked.length).toBe(once);
    // a second visit of the new version reads nothing
    await source(changed, bytes, cache, '"f"').converter.convert('int4', plan, checkpoint);
    expect(changed.asked.length).toBe(once);
    const twice = hub.asked.length;
    const other = planOf(checkpoint, { kind: 'blocks', bits: 4, block: 16 }, KEEP);
    const c = await source(hub, bytes, cache).converter.convert('int4', other, checkpoint);
    expect(hub.asked.length).toBeGreaterThan(twice);
    expect(c.covers(other)).toBe(true);
  });

  it('one converter converts a precision once, and again only for tensors in another form', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const hub = rangeHub(bytes);
    const { converter } = source(hub, bytes, null);
    const plan = planOf(checkpoint, INT4, KEEP);
    const a = await converter.convert('int4', plan, checkpoint);
    const once = hub.asked.length;
    expect(await converter.convert('int4', new Map([...plan].slice(0, 3)), checkpoint)).toBe(a);
    expect(hub.asked.length).toBe(once);
  });

  it('a cache that refuses to store: converted in memory, said once, the same bytes', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const plan = planOf(checkpoint, INT4, { kind: 'float16' });
    const full: WeightCache = {
      ...memoryCache(),
      put: () => Promise.reject(new DOMException('the quota is used up', 'QuotaExceededError')),
    };
    const refused = source(rangeHub(bytes), bytes, full);
    const got = await refused.converter.convert('int4', plan, checkpoint);
    expect(refused.errors).toEqual(['the quota is used up']);
    const fine = await source(rangeHub(bytes), bytes, memoryCache()).converter.convert('int4', plan, checkpoint);
    expect(await partsOf(got)).toEqual(await partsOf(fine));
  });

  it('no browser cache: within the memory budget the weights convert in memory; past it the run stops before downloading', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const plan = planOf(checkpoint, INT4, KEEP);
    const hub = rangeHub(bytes);
    const fine = await source(hub, bytes, null).converter.convert('int4', plan, checkpoint);
    const stored = await source(rangeHub(bytes), bytes, memoryCache()).converter.convert('int4', plan, checkpoint);
    expect(await partsOf(fine)).toEqual(await partsOf(stored));
    const size = fine.files.get(`int4/${WEIGHTS_NAME}`)!.size;
    const over = rangeHub(bytes);
    const files = chunkedHubSource(over.repo, [{ name: WEIGHTS_NAME, size: bytes.length, etag: '"e"' }], {
      cache: null,
    });
    const refused = convertedSource(files, null, 'int4', { memoryBudget: size - 1 });
    await expect(refused.converter.convert('int4', plan, checkpoint)).rejects.toThrow(
      /The int4 weights cannot be kept: the browser cache cannot store them \(.+\), and the .+ of them it does not hold would pass the .+ this page may hold in memory/,
    );
    expect(over.asked).toEqual([]);
  });

  it('a hub failure is not a cache failure: it fails the conversion', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const hub = rangeHub(bytes, { forbid: 'bytes=4096-8191' });
    const { converter, errors } = source(hub, bytes, memoryCache());
    await expect(converter.convert('int4', planOf(checkpoint, INT4, KEEP), checkpoint)).rejects.toThrow(/403/);
    expect(errors).toEqual([]);
  });

  it('after a run on converted weights, finishing the cache leaves the file chunks alone; after a float32 run it stores them', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const hub = rangeHub(bytes);
    const cache = memoryCache();
    const s = convertedOver(hub, bytes, cache);
    await s.converter.convert('int4', planOf(checkpoint, INT4, KEEP), checkpoint);
    const converted = hub.asked.length;
    expect(await s.complete()).toBe(false);
    expect(hub.asked.length).toBe(converted);
    // a float32 session takes the file itself: the rest of its chunks are stored after the run
    const float32 = hubFiles(hub, bytes, cache);
    const f = (await float32.open!(WEIGHTS_NAME))!;
    expect(await f.blob!().slice(0, 100).arrayBuffer()).toEqual(bytes.slice(0, 100).buffer);
    expect(await float32.complete()).toBe(true);
    expect(hub.asked.length).toBeGreaterThan(converted);
  });

  it('a second visit whose precision is converted in the cache asks the hub nothing: headers as inspected, the converted files, no file chunk after the run', async () => {
    const { checkpoint, bytes } = await hubCheckpoint();
    const hub = rangeHub(bytes);
    const cache = memoryCache();
    const plan = planOf(checkpoint, INT4, KEEP);
    const first = convertedOver(hub, bytes, cache);
    const inspected = await readSafetensorsHead((await first.open!(WEIGHTS_NAME))!, WEIGHTS_NAME);
    await first.converter.convert('int4', plan, checkpoint);
    expect(await first.complete()).toBe(false);
    await first.release();
    hub.asked.length = 0;
    // the page hands the worker the headers it inspected
    const again = convertedOver(hub, bytes, cache, '"e"', [], inspected.head);
    const read = await readSafetensorsHead((await again.open!(WEIGHTS_NAME))!, WEIGHTS_NAME);
    expect(read.head).toEqual(bytes.subarray(0, inspected.head.length));
    await again.converter.convert('int4', plan, checkpoint);
    expect(await again.complete()).toBe(false);
    expect(hub.asked).toEqual([]);
    // no chunk of the file itself was stored by either visit
    const raw = await cache.match({
      url: `${hub.repo.hubUrl}/${hub.repo.repoId}/resolve/main/${WEIGHTS_NAME}`,
      etag: '"e"',
      size: bytes.length,
      chunkBytes: 4096,
    });
    expect(raw === null || !(await raw.has(0))).toBe(true);
  });

  it('in the browser file storage: the converted file is an entry of its own beside the file, read back with no request', async () => {
    const opfs = installMemoryOpfs();
    try {
      const { checkpoint, bytes } = await hubCheckpoint();
      const hub = rangeHub(bytes);
      const plan = planOf(checkpoint, INT4, KEEP);
      // a float32 run stores the file's chunks; an int4 run then converts beside them
      const float32 = hubFiles(hub, bytes, await openCache());
      await new Response((await float32.open!(WEIGHTS_NAME))!.blob!().stream()).arrayBuffer();
      await float32.release();
      const s = convertedOver(hub, bytes, await openCache());
      const first = await s.converter.convert('int4', plan, checkpoint);
      await s.release();
      const asked = hub.asked.length;
      const again = convertedOver(hub, bytes, await openCache());
      const second = await again.converter.convert('int4', plan, checkpoint);
      expect(hub.asked.length).toBe(asked);
      expect(await partsOf(second)).toEqual(await partsOf(first));
      await again.release();
      const url = `${hub.repo.hubUrl}/${hub.repo.repoId}/resolve/main/${WEIGHTS_NAME}`;
      expect((await cachedVersions(url)).map((v) => v.size)).toEqual([bytes.length]);
      expect((await cachedVersions(`${url}#converted-int4`)).map((v) => v.etag)).toEqual([
        '"e" hub-console-converted-v1',
      ]);
    } finally {
      opfs.restore();
    }
  });
});

describe('what the browser cache holds of a checkpoint, and removing it', () => {
  it('lists the file chunks and each precision converted, with their bytes; removing the files leaves nothing', async () => {
    const opfs = installMemoryOpfs();
    try {
      const { checkpoint, bytes } = await hubCheckpoint();
      const hub = rangeHub(bytes);
      const url = `${hub.repo.hubUrl}/${hub.repo.repoId}/resolve/main/${WEIGHTS_NAME}`;
      const file = { url, etag: '"e"', size: bytes.length };
      expect(await cachedFiles([file], 4096)).toEqual([{ url, bytes: 0, complete: false, converted: [] }]);
      // a float32 run stores the file's chunks; int4 and int8 runs convert beside them
      const float32 = hubFiles(hub, bytes, await openCache());
      await new Response((await float32.open!(WEIGHTS_NAME))!.blob!().stream()).arrayBuffer();
      expect(await float32.complete()).toBe(true);
      await float32.release();
      const s = convertedOver(hub, bytes, await openCache());
      const int4 = await s.converter.convert('int4', planOf(checkpoint, INT4, KEEP), checkpoint);
      const int8 = await s.converter.convert('int8', planOf(checkpoint, { kind: 'int8-rows' }, KEEP), checkpoint);
      await s.release();
      const size = (c: typeof int4, p: string) => c.files.get(`${p}/${WEIGHTS_NAME}`)!.size;
      expect(await cachedFiles([file], 4096)).toEqual([
        {
          url,
          bytes: bytes.length,
          complete: true,
          converted: [
            { precision: 'int8', bytes: size(int8, 'int8'), complete: true },
            { precision: 'int4', bytes: size(int4, 'int4'), complete: true },
          ],
        },
      ]);
      // another version of the file (a new ETag on the hub) holds nothing yet
      expect(await cachedFiles([{ ...file, etag: '"f"' }], 4096)).toEqual([
        { url, bytes: 0, complete: false, converted: [] },
      ]);
      await browserCache.remove([url]);
      expect(await cachedFiles([file], 4096)).toEqual([{ url, bytes: 0, complete: false, converted: [] }]);
      // no orphaned bytes: the cache's folder is empty
      const top = await navigator.storage.getDirectory();
      expect(await entriesOf(await top.getDirectoryHandle(ROOT))).toEqual([]);
    } finally {
      opfs.restore();
    }
  });
});
