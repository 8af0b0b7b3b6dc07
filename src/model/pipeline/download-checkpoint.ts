// A checkpoint's weight files downloaded straight into the browser cache, a chunk per Range request
// (never a whole file in memory), with progress; the chunks an earlier, stopped download stored count as done.
import { ChunkedHubFile } from '../cache/hub-file-chunks.ts';
import { openCache } from '../cache/opfs-cache.ts';
import { BrowserCacheError } from '../cache/weight-cache.ts';
import type { CheckpointRef, CheckpointProgress, InspectedFile } from './checkpoint-info.ts';

export type DownloadResult = { cached: true } | { cached: false; reason: string };

/**
 * Downloads the weight files not in the cache into it. When the browser cache cannot store them
 * (quota, private mode) the download stops and says why: the model then streams them from the hub.
 */
export async function downloadCheckpoint(
  ref: CheckpointRef,
  files: readonly Pick<InspectedFile, 'name' | 'size' | 'etag' | 'cached'>[],
  onProgress: (p: CheckpointProgress) => void,
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
