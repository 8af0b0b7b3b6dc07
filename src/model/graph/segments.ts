// The transformer as a sequence of graphs ("segments"), each a run of consecutive blocks holding
// only those blocks' weights, so that each can be made into a session of its own (weights past
// what one session, one heap or one GPU buffer takes). Run in order, each on what the ones before
// it output, they compute what the whole graph computes.
import type { ConsisIDConfig } from './config.ts';
import type { WeightSet } from '../io/safetensors/weight-set.ts';
import {
  buildTransformerBlocks,
  type BlockRange,
  type BuildOptions,
  type BuiltGraph,
  type GraphShape,
} from './transformer.ts';

export interface BuiltSegment extends BuiltGraph {
  blocks: BlockRange;
}

/** throws unless `count` is a whole number of segments from 1 to `layers` */
export function checkSegmentCount(count: number, layers = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isInteger(count) || count < 1 || count > layers)
    throw new RangeError(
      `segments: ${count} is not a whole number of segments from 1 to ${layers === Number.MAX_SAFE_INTEGER ? 'the number of blocks' : `the ${layers} blocks`}`,
    );
}

/** `count` segments of as equal block counts as can be (the first ones one block longer) */
export function evenSegments(layers: number, count: number): BlockRange[] {
  checkSegmentCount(count, layers);
  const base = Math.floor(layers / count);
  const longer = layers % count;
  const ranges: BlockRange[] = [];
  for (let i = 0, from = 0; i < count; i++) {
    const to = from + base + (i < longer ? 1 : 0);
    ranges.push({ from, to });
    from = to;
  }
  return ranges;
}

/** the segments that start before each of `boundaries` (ascending block indices inside (0, layers)) */
export function segmentsAt(layers: number, boundaries: readonly number[]): BlockRange[] {
  const cuts = [0, ...boundaries, layers];
  return cuts.slice(1).map((to, i) => ({ from: cuts[i]!, to }));
}

/** throws unless the ranges are non-empty and cover blocks 0 .. layers - 1 in order */
export function checkSegments(layers: number, segments: readonly BlockRange[]): void {
  let next = 0;
  for (const s of segments) {
    if (s.from !== next || !(s.to > s.from) || !Number.isInteger(s.to))
      throw new RangeError(
        `segments: [${segments.map((r) => `${r.from}-${r.to}`).join(', ')}] must be non-empty block ranges that follow each other from block 0`,
      );
    next = s.to;
  }
  if (next !== layers) throw new RangeError(`segments: they end at block ${next}, the model has ${layers} blocks`);
}

/** one graph per range; a single range [0, num_layers) is the whole graph, byte for byte */
export function buildConsisIDSegments(
  config: ConsisIDConfig,
  weights: WeightSet,
  shape: GraphShape,
  segments: readonly BlockRange[],
  opts: BuildOptions = {},
): BuiltSegment[] {
  checkSegments(config.num_layers, segments);
  return segments.map((blocks) => ({ blocks, ...buildTransformerBlocks(config, weights, shape, opts, blocks) }));
}
