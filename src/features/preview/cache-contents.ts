// What the page says the browser cache holds of a checkpoint: its files' chunks (the Browser cache
// figure) and, per precision, the files converted to it (cachedFiles in src/model/loader).
import { formatBytes } from '../../components/ui/format.ts';
import type { WeightPrecision } from '../../model/index.ts';
import type { InspectedFile } from './checkpoint.ts';
import type { BrowserStorage, CachedFileState, StorageRoom } from './worker/protocol.ts';

export interface ConvertedTotal {
  precision: WeightPrecision;
  bytes: number;
  /** every file converted to it is stored whole */
  complete: boolean;
}

/** per precision, over the checkpoint's files, the bytes stored converted to it (precisions with none left out) */
export function convertedTotals(files: readonly CachedFileState[]): ConvertedTotal[] {
  const totals = new Map<WeightPrecision, ConvertedTotal>();
  for (const f of files)
    for (const c of f.converted) {
      const t = totals.get(c.precision) ?? { precision: c.precision, bytes: 0, complete: true };
      totals.set(c.precision, { ...t, bytes: t.bytes + c.bytes, complete: t.complete && c.complete });
    }
  return [...totals.values()];
}

/** 'int8 (1.2 MB), int4 (640 KB, part of it)', or 'none' */
export const convertedLine = (totals: readonly { precision: string; bytes: number; complete: boolean }[]) =>
  totals.length
    ? totals.map((t) => `${t.precision} (${formatBytes(t.bytes)}${t.complete ? '' : ', part of it'})`).join(', ')
    : 'none';

/** the cache holds something of these files: their chunks or a conversion */
export const holdsAny = (files: readonly CachedFileState[]) => files.some((f) => f.bytes > 0 || f.converted.length > 0);

/**
 * What the fit checks of the browser's storage: the room it leaves, per precision what the cache
 * holds of this checkpoint (whole only when every file is stored whole) and, once planned, the
 * bytes its conversion takes (`converted`); null while the listing is not read or when the
 * browser says nothing.
 */
export function fitStorage(
  room: StorageRoom | null,
  files: readonly CachedFileState[] | null,
  converted?: BrowserStorage['converted'],
): BrowserStorage | null {
  if (!room || !files || (room.free === null && room.unusable === null)) return null;
  const whole = (p: WeightPrecision) => files.every((f) => f.converted.some((c) => c.precision === p && c.complete));
  const cached = Object.fromEntries(
    convertedTotals(files).map((t) => [t.precision, { bytes: t.bytes, complete: whole(t.precision) }]),
  );
  return { free: room.free ?? 0, unusable: room.unusable, cached, ...(converted ? { converted } : {}) };
}

/** what Download offers for the chosen precision: the bytes it fetches, or why there are none (null: nothing to say) */
export type DownloadOffer = { bytes: number } | { nothing: string } | null;

/**
 * float32 sessions read the files themselves: Download stores the bytes the cache lacks. Any other
 * precision reads its converted files: Download converts the files whose conversion is not stored
 * whole (each streams whole from the hub, its chunks never stored), and with all of them stored
 * there is nothing to fetch. `cached`: the cache's listing (null while it is read).
 */
export function downloadOffer(
  info: { files: readonly Pick<InspectedFile, 'url' | 'size'>[]; missingBytes: number },
  cached: readonly CachedFileState[] | null,
  weights: WeightPrecision,
): DownloadOffer {
  if (weights === 'float32') return info.missingBytes > 0 ? { bytes: info.missingBytes } : null;
  const stored = (url: string) =>
    cached?.find((c) => c.url === url)?.converted.some((c) => c.precision === weights && c.complete) ?? false;
  const bytes = info.files.reduce((n, f) => n + (stored(f.url) ? 0 : f.size), 0);
  if (bytes > 0) return { bytes };
  return info.files.length ? { nothing: `converted ${weights} cached: nothing to download` } : null;
}
