// The GPU buffers onnxruntime's WebGPU EP holds for a graph's run-time tensors, bounded from the
// tensors' lifetimes in node order. Its buffer manager (onnxruntime/core/providers/webgpu/
// buffer_manager.cc) hands a released buffer back to its cache only when the pending commands are
// submitted: every 16 dispatches (webgpu_context.h, max_num_pending_dispatches_) and at the end of a
// run. Until then the buffer still exists. What the cache then does with it depends on its mode:
// - 'lazyRelease': destroys it;
// - 'simple': keeps it for a later request of exactly its size (16-byte aligned), without limit;
// - 'bucket' (onnxruntime's default): sizes are rounded up to a bucket of BUCKET_LIMITS and kept up to
//   the bucket's count; a size over the largest bucket is destroyed.
// A new buffer is made only when the cache has none of the size, so the buffers of one size never
// outnumber the most tensors of that size alive or pending at once. Each tensor counts as a buffer of
// its own: onnxruntime's allocation planner may hand a freed buffer to a later output of the same bytes,
// but in its own node order, so counting each tensor on its own never plans less than the EP holds. See docs/model-memory.md.

/** the storage-buffer cache mode of the WebGPU EP (onnxruntime-web's `storageBufferCacheMode`) */
export type BufferCacheMode = 'lazyRelease' | 'simple' | 'bucket';

/** the mode the page's WebGPU sessions use (src/model/runtime/web-session.ts) */
export const WEBGPU_BUFFER_CACHE: BufferCacheMode = 'lazyRelease';

/** dispatches the EP records before it submits them and refreshes its cache */
export const DISPATCHES_PER_SUBMIT = 16;

/**
 * Graph nodes that may share one dispatch once onnxruntime has fused them (an Add into the
 * LayerNormalization after it, a bias into its MatMul): a released buffer is counted as pending for
 * this many times DISPATCHES_PER_SUBMIT dispatching nodes of the graph as built.
 */
export const FUSED_NODES_PER_DISPATCH = 2;

/** bucket size -> buffers kept (BUCKET_DEFAULT_LIMIT_TABLE of buffer_manager.cc) */
export const BUCKET_LIMITS: ReadonlyMap<number, number> = new Map([
  [64, 250],
  [128, 200],
  [256, 200],
  [512, 200],
  [2048, 230],
  [4096, 200],
  [8192, 50],
  [16384, 50],
  [32768, 50],
  [65536, 50],
  [131072, 50],
  [262144, 50],
  [524288, 50],
  [1048576, 50],
  [2097152, 30],
  [4194304, 20],
  [8388608, 10],
  [12582912, 10],
  [16777216, 10],
  [26214400, 15],
  [33554432, 22],
  [44236800, 2],
  [58982400, 6],
  [67108864, 6],
  [134217728, 6],
  [167772160, 6],
]);
const BUCKETS = [...BUCKET_LIMITS.keys()].sort((a, b) => a - b);

/** WebGPU buffer sizes are multiples of 16 bytes */
export const aligned = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/** the size of the buffer the EP makes for a request of `bytes`, and whether its cache keeps such buffers */
export function bufferSize(bytes: number, mode: BufferCacheMode): { size: number; kept: boolean } {
  if (mode === 'lazyRelease') return { size: aligned(bytes), kept: false };
  if (mode === 'simple') return { size: aligned(bytes), kept: true };
  const bucket = BUCKETS.find((b) => b >= bytes);
  return bucket === undefined ? { size: aligned(bytes), kept: false } : { size: bucket, kept: true };
}

/** a run-time tensor: its bytes, made by node `from` and last read by node `to` (node indices of one run) */
export interface TensorLife {
  bytes: number;
  from: number;
  to: number;
}

/**
 * What the EP makes for these tensors over runs of one graph, given which nodes dispatch a program
 * (views and folded constants do not): for each buffer size its cache keeps, the most buffers of it
 * needed at once; under DESTROYED, the most bytes of buffers it destroys once handed back. A tensor's
 * buffer exists from its node until the submit after its last reader: at most DISPATCHES_PER_SUBMIT x
 * FUSED_NODES_PER_DISPATCH dispatching nodes later (the run's end at the latest).
 */
export function bufferDemand(
  tensors: readonly TensorLife[],
  dispatching: readonly boolean[],
  mode: BufferCacheMode,
): Map<number, number> {
  const nodes = Math.max(1, dispatching.length);
  const last = nodes - 1;
  // dispatched[k]: dispatching nodes among 0..k
  const dispatched: number[] = [];
  dispatching.forEach((d, k) => dispatched.push((dispatched[k - 1] ?? 0) + (d ? 1 : 0)));
  const window = DISPATCHES_PER_SUBMIT * FUSED_NODES_PER_DISPATCH;
  const handedBack = (i: number): number => {
    let k = i + 1;
    while (k < last && (dispatched[k] ?? 0) - (dispatched[i] ?? 0) < window) k++;
    return Math.min(k, last);
  };
  const steps = new Map<number, number[]>();
  const add = (key: number, at: number, by: number) => {
    let d = steps.get(key);
    if (!d) steps.set(key, (d = new Array<number>(nodes + 1).fill(0)));
    d[at]! += by;
  };
  const memo = new Map<number, number>();
  for (const t of tensors) {
    const { size, kept } = bufferSize(t.bytes, mode);
    const from = Math.min(Math.max(0, t.from), last);
    const lastRead = Math.min(Math.max(from, t.to), last);
    let to = memo.get(lastRead);
    if (to === undefined) memo.set(lastRead, (to = t.to >= last ? last : handedBack(lastRead)));
    add(kept ? size : DESTROYED, from, kept ? 1 : size);
    add(kept ? size : DESTROYED, to + 1, kept ? -1 : -size);
  }
  const demand = new Map<number, number>();
  for (const [key, d] of steps) {
    let now = 0;
    let most = 0;
    for (const x of d) most = Math.max(most, (now += x));
    demand.set(key, most);
  }
  return demand;
}

/** the key of bufferDemand's bytes of buffers destroyed once handed back */
export const DESTROYED = -1;

/**
 * The most bytes of buffers the EP holds over runs of these graphs one after another (one device:
 * the sessions share its cache): a kept size at the most of it any graph needs, the destroyed ones
 * at the most any graph has at once.
 */
export function heldBytes(demands: readonly Map<number, number>[]): number {
  const most = new Map<number, number>();
  for (const d of demands) for (const [k, v] of d) most.set(k, Math.max(most.get(k) ?? 0, v));
  let held = 0;
  for (const [k, v] of most) held += k === DESTROYED ? v : k * v;
  return held;
}
