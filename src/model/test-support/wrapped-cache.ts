// A weight cache whose entries pass every call through to another cache's, except those a test
// replaces (faults in reads, writes refused from some point on).
import type { FileVersion, StoredFile, WeightCache } from '../cache/weight-cache.ts';

type StoredCalls = Omit<StoredFile, 'complete' | 'allPresent'>;

/** `cache` with each entry's calls replaced by `over(version, entry)`'s; lookups, new entries and removals are its own */
export function wrappedCache(cache: WeightCache, over: (v: FileVersion, f: StoredFile) => Partial<StoredCalls>) {
  const wrap = (v: FileVersion, f: StoredFile): StoredFile => ({
    get complete() {
      return f.complete;
    },
    get allPresent() {
      return f.allPresent;
    },
    has: (i) => f.has(i),
    write: (i, body) => f.write(i, body),
    read: (i, from, to) => f.read(i, from, to),
    markComplete: () => f.markComplete(),
    release: () => f.release(),
    ...over(v, f),
  });
  return {
    match: async (v) => {
      const f = await cache.match(v);
      return f && wrap(v, f);
    },
    put: async (v) => wrap(v, await cache.put(v)),
    delete: (v) => cache.delete(v),
  } satisfies WeightCache;
}
