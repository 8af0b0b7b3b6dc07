// What bench/stream-memory.ts reports (one JSON line on stdout; before its forward, the report so
// far on stderr after PARTIAL_REPORT), for bench/gpu-memory.ts to read.
import type { Reading } from './process-memory.ts';
import type { AdapterFacts } from './dawn.ts';
import type { WebGpuLimits } from '../src/model/plan/plan.ts';
import type { WeightPrecision } from '../src/model/plan/precision.ts';

/** the stderr line before the forward: the report so far */
export const PARTIAL_REPORT = 'report before the forward: ';

export interface StreamMemoryReport {
  weights: WeightPrecision;
  shape: string;
  adapter: AdapterFacts;
  /** the limits the segments were planned with */
  limits: WebGpuLimits;
  /** what the page's plan says before a download (fit.ts): bytes */
  plan: { weightBytes: number; activationPeakBytes: number; gpuBytes: number; heapBytes: number; segments: number };
  downloadedBytes: number;
  /** the converted weights on disk (the cache) */
  convertedBytes: number;
  sessionsMade: number;
  /** seconds: the checkpoint's headers, the conversion and segments' sessions, the forward (null: not run) */
  openS: number;
  sessionS: number;
  forwardS: number | null;
  peakJsWasmBytes: number;
  peakRssBytes: number;
  /** the most bytes of GPU buffers live at once, and how many buffers were made (bench/dawn.ts) */
  peakGpuBufferBytes: number;
  gpuBuffersMade: number;
  readings: (Reading & { gpuBuffersMiB: number })[];
}
