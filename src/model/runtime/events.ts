// What a model tells its caller while it works: each stage's start and end, a move to the
// fallback device, and each segment's turn. Listeners given to the model and to one call both hear.
import type { Device } from './types.ts';

/** the stages of a first forward: reading the weights, building the graph, creating the session, running it */
export type ModelStage = 'weights' | 'graph' | 'session' | 'forward';

export type StageEvent =
  | { stage: ModelStage; state: 'start'; device: Device }
  | { stage: ModelStage; state: 'end'; device: Device; ms: number };

export interface FallbackEvent {
  from: Device;
  to: Device;
  /** why the first device failed */
  reason: string;
}

export interface SegmentEvent {
  index: number;
  count: number;
  device: Device;
}

export interface ModelEvents {
  /** each stage's start, and its end with the time it took */
  onStage?: (e: StageEvent) => void;
  /** the session could not be created on the device and was created on the fallback device */
  onFallback?: (e: FallbackEvent) => void;
  /** a segmented session: segment `index` (from 0) of `count` starts, its weights read and its session made */
  onSegment?: (e: SegmentEvent) => void;
}

/** calls both listeners (model-wide, then per call) */
export function mergeEvents(a: ModelEvents, b: ModelEvents | undefined): ModelEvents {
  if (!b) return a;
  return {
    onStage: (e) => {
      a.onStage?.(e);
      b.onStage?.(e);
    },
    onFallback: (e) => {
      a.onFallback?.(e);
      b.onFallback?.(e);
    },
    onSegment: (e) => {
      a.onSegment?.(e);
      b.onSegment?.(e);
    },
  };
}

/** runs `fn` as `stage` on `device`: its start, then its end with the milliseconds it took */
export async function timedStage<T>(
  events: ModelEvents,
  stage: ModelStage,
  device: Device,
  fn: () => Promise<T> | T,
): Promise<T> {
  events.onStage?.({ stage, state: 'start', device });
  const t0 = performance.now();
  const out = await fn();
  events.onStage?.({ stage, state: 'end', device, ms: performance.now() - t0 });
  return out;
}
