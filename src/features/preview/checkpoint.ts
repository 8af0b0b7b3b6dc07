// The page's view of an inspected checkpoint: its files' stored bytes as the cache's listing counts them.
import type { CheckpointInfo } from '../../model/index.ts';

export type { CheckpointInfo, CheckpointProgress } from '../../model/index.ts';
export type { CheckpointRef, InspectedFile } from './worker/protocol.ts';

type Versioned = Pick<CheckpointInfo['files'][number], 'url' | 'etag' | 'size'>;
const versionsOf = (files: readonly Versioned[]) => files.map(({ url, etag, size }) => ({ url, etag, size }));

/** each transformer file's URL, ETag and size: the version the cache keeps it under */
export const fileVersions = (info: CheckpointInfo) => versionsOf(info.files);

/** the transformer's files and its vae/'s (a decode caches those too): what removing the checkpoint empties */
export const checkpointFileVersions = (info: CheckpointInfo) => [
  ...versionsOf(info.files),
  ...('error' in info.vae ? [] : versionsOf(info.vae.files)),
];

/** the inspection with the stored bytes of its files as the cache's listing (in their order) counts them */
export function withStored(info: CheckpointInfo, listed: readonly { bytes: number }[]): CheckpointInfo {
  const stored = info.files.map((f, i) => ({
    cached: listed[i]?.bytes === f.size,
    storedBytes: listed[i]?.bytes ?? 0,
  }));
  if (stored.every((s, i) => s.storedBytes === info.files[i]!.storedBytes && s.cached === info.files[i]!.cached))
    return info;
  const files = info.files.map((f, i) => ({ ...f, ...stored[i]! }));
  return { ...info, files, missingBytes: files.reduce((a, f) => a + f.size - f.storedBytes, 0) };
}
