// The browser cache as the preview asks it, one narrow interface: open it for the weights, what
// it holds of a checkpoint's files (each file's own chunks and, per precision, the file converted:
// converted-file.ts), remove a checkpoint's files or everything, and why it cannot store at all.
import {
  deleteCachedFiles,
  fileStorageRefusal,
  openCache,
  removeCachedUrls,
  storedAmounts,
  type StoredAmount,
} from '../cache/opfs-cache.ts';
import { CHUNK_BYTES } from '../cache/weight-cache.ts';
import { WEIGHT_PRECISIONS, type WeightPrecision } from '../plan/precision.ts';
import { convertedEtag, convertedUrl } from './converted-file.ts';

/** what the browser cache holds of one version of a hub file: its chunks, and the file converted per precision */
export interface CachedFileState extends StoredAmount {
  url: string;
  /** the precisions it is stored converted to (only those with bytes stored) */
  converted: ({ precision: WeightPrecision } & StoredAmount)[];
}

/** What the browser cache holds of each file version. Nothing (never an error) where there is no store. */
export async function cachedFiles(
  files: readonly { url: string; etag: string | null; size: number }[],
  chunkBytes = CHUNK_BYTES,
): Promise<CachedFileState[]> {
  return Promise.all(
    files.map(async ({ url, etag, size }) => {
      const [raw, ...converted] = await storedAmounts([
        { url, etag, size, chunkBytes },
        ...WEIGHT_PRECISIONS.map((p) => ({
          url: convertedUrl(url, p),
          etag: convertedEtag(etag),
          size: null,
          chunkBytes,
        })),
      ]);
      return {
        url,
        ...raw!,
        converted: WEIGHT_PRECISIONS.map((precision, i) => ({ precision, ...converted[i]! })).filter(
          (c) => c.bytes > 0,
        ),
      };
    }),
  );
}

/** the browser cache of weights, in the origin private file system */
export const browserCache = {
  /** the cache for a model's weights; throws BrowserCacheError where the browser stores no files */
  open: openCache,
  /** what it holds of each file version (nothing, never an error, without a store) */
  holds: cachedFiles,
  /** removes the files from the cache: every version of their chunks and of each precision they were converted to */
  remove: (urls: readonly string[]): Promise<void> =>
    removeCachedUrls(urls.flatMap((url) => [url, ...WEIGHT_PRECISIONS.map((p) => convertedUrl(url, p))])),
  /** removes every stored file; returns how many complete files there were */
  clear: deleteCachedFiles,
  /** why the browser stores no files for this page, or null when it does */
  refusal: fileStorageRefusal,
};
