// What the browser cache holds of a checkpoint, counted, filled and emptied in a worker: the
// stored bytes of each file, the float32 download into the cache, and the removal of a
// checkpoint's files or of everything.
import type { CheckpointRef, DownloadProgress, WeightFile } from '../checkpoint.ts';
import {
  BrowserCacheError,
  cachedFiles,
  ChunkedHubFile,
  deleteCachedFiles,
  openCache,
  removeCachedFiles,
} from '../../../model/index.ts';

/** bytes of the file version's chunks in the browser cache */
export const storedBytesOf = async (url: string, etag: string | null, size: number) =>
  (await cachedFiles([{ url, etag, size }]))[0]!.bytes;

export type DownloadResult = { cached: true } | { cached: false; reason: string };

/**
 * Downloads the weight files not in the cache straight into it, a chunk per Range request (never
 * a whole file in memory). When the browser cache cannot store them (quota, private mode) the
 * download stops and says why: the model then streams the weights from the hub, uncached.
 */
export async function downloadFiles(
  ref: CheckpointRef,
  files: readonly Pick<WeightFile, 'name' | 'size' | 'etag' | 'cached'>[],
  onProgress: (p: DownloadProgress) => void,
): Promise<DownloadResult> {
  const todo = files.filter((f) => !f.cached);
  const overallTotal = todo.reduce((a, f) => a + f.size, 0);
  let overallLoaded = 0;
  try {
    const cache = await openCache();
    for (const f of todo) {
      let loaded = 0;
      // chunks an earlier, stopped download stored count as done
      const progress = (n: number) => {
        loaded += n;
        overallLoaded += n;
        onProgress({ file: f.name, loaded, total: f.size, overallLoaded, overallTotal });
      };
      const file = new ChunkedHubFile(ref, f.name, f.size, f.etag, {
        cache,
        onFetched: progress,
        onStored: progress,
        onCacheError: (e) => {
          throw e;
        },
      });
      if (!(await file.download())) throw new BrowserCacheError(`${f.name} was not stored`);
    }
  } catch (e) {
    if (e instanceof BrowserCacheError) return { cached: false, reason: e.message };
    throw e;
  }
  return { cached: true };
}

/** the checkpoint's files out of the cache (their chunks and every conversion); how many held something */
export async function removeFiles(files: readonly Pick<WeightFile, 'url' | 'etag' | 'size'>[]): Promise<number> {
  const held = (await cachedFiles(files)).filter((f) => f.bytes > 0 || f.converted.length > 0).length;
  await removeCachedFiles(files.map((f) => f.url));
  return held;
}

export const clearAll = (): Promise<number> => deleteCachedFiles();
