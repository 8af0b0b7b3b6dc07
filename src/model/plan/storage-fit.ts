// Whether a precision's converted weights have somewhere to go, decided before download: the
// browser cache (what the origin may still store, plus what it holds of this checkpoint at that
// precision already) or, where the cache cannot take them, memory: the weights held there and the
// largest segment's weights passing through the heap beside them stay within the budget of one
// segment (memory-budget.ts; convert/weight-converter.ts holds the run to what is left: heldBudget). float32 converts
// nothing: its files stream through as they are.
import type { Device } from '../runtime/types.ts';
import type { WeightPrecision } from './precision.ts';
import { formatBytes } from './format-bytes.ts';
import { heldBudget, type MemoryBudget } from './memory-budget.ts';

/** the part of a precision's fit the storage rule reads, and extends with its reason */
export interface FitVerdict {
  weights: WeightPrecision;
  device: Device;
  weightBytes: number;
  /** the most bytes the WASM heap holds at once (on WebGPU the largest segment's weights) */
  heapBytes: number;
  fits: boolean;
  reasons: string[];
}

/** what the browser can store, read by the page (navigator.storage.estimate, the file storage, the cache's listing) */
export interface BrowserStorage {
  /** quota less usage: the bytes this site may still store */
  free: number;
  /** why the browser stores no files here (no OPFS, private mode); null when it does */
  unusable: string | null;
  /** per precision, the bytes of this checkpoint the cache holds converted already; complete: every file whole */
  cached?: Partial<Record<WeightPrecision, { bytes: number; complete: boolean }>>;
  /**
   * per precision, the bytes the converter writes for this checkpoint (convert/conversion-plan.ts,
   * from its headers); where absent (headers not read, not planned yet) the plan's weight bytes stand in
   */
  converted?: Partial<Record<WeightPrecision, number>>;
}

/** the converted bytes of `weights` all told: the converter's exact figure where known, else the plan's `weightBytes` */
export const convertedTotal = (weights: WeightPrecision, weightBytes: number, storage: BrowserStorage): number =>
  storage.converted?.[weights] ?? weightBytes;

/** the converted bytes of `weights` that still need room: none for float32 or when the cache holds them whole */
export function storageNeed(weights: WeightPrecision, weightBytes: number, storage: BrowserStorage): number {
  const cached = storage.cached?.[weights];
  if (weights === 'float32' || cached?.complete) return 0;
  return Math.max(0, convertedTotal(weights, weightBytes, storage) - (cached?.bytes ?? 0));
}

/**
 * why `weights` cannot be converted here (more than the cache has room for, and more than memory may
 * hold beside the `passing` bytes of the largest segment), or null
 */
export function storageReason(
  weights: WeightPrecision,
  weightBytes: number,
  storage: BrowserStorage,
  memoryBudget: MemoryBudget,
  passing = 0,
): string | null {
  const need = storageNeed(weights, weightBytes, storage);
  const free = storage.unusable === null ? storage.free : 0;
  const held = heldBudget(memoryBudget, passing);
  if (need <= free || need <= held) return null;
  const cached = convertedTotal(weights, weightBytes, storage) - need;
  const of = `the ${weights} weights need ${formatBytes(need)} of browser storage${cached > 0 ? ` beside the ${formatBytes(cached)} cached already` : ''}`;
  const room =
    storage.unusable === null
      ? `${formatBytes(free)} is free`
      : `this browser stores no files here (${storage.unusable})`;
  const beside =
    passing > 0 ? ` (${formatBytes(memoryBudget)} less the ${formatBytes(passing)} a segment passes through it)` : '';
  return `${of}; ${room}, and they are over the ${formatBytes(held)} the page may hold in memory instead${beside}`;
}

/** the fits with the storage rule added: a precision refused by it names what to do (free space, or a precision that fits) */
export function withStorage<F extends FitVerdict>(
  fits: readonly F[],
  storage: BrowserStorage,
  memoryBudget: MemoryBudget,
): F[] {
  const reasons = fits.map((f) => storageReason(f.weights, f.weightBytes, storage, memoryBudget, passingBytes(f)));
  const others = fits.filter((f, i) => f.fits && !reasons[i]).map((f) => f.weights);
  return fits.map((f, i) => {
    const why = reasons[i];
    if (!why) return f;
    const instead = others.length ? `free browser storage, or choose ${others.join(' or ')}` : 'free browser storage';
    return { ...f, fits: false, reasons: [...f.reasons, `${why}: ${instead}`] };
  });
}

/** the weights one segment passes through the heap while converted weights are held: on WebGPU the largest segment's */
export const passingBytes = (f: FitVerdict): number => (f.device === 'webgpu' ? f.heapBytes : 0);

/** per precision, what the page may hold in memory when the cache refuses: the budget less what its largest segment passes through the heap */
export const heldBudgets = (fits: readonly FitVerdict[], memoryBudget: MemoryBudget): Record<string, number> =>
  Object.fromEntries(fits.map((f) => [f.weights, heldBudget(memoryBudget, passingBytes(f))]));
