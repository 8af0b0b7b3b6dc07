import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aligned,
  BUCKET_LIMITS,
  bufferDemand,
  bufferSize,
  DISPATCHES_PER_SUBMIT,
  heldBytes,
  type BufferCacheMode,
  type TensorLife,
} from './ep-buffers.ts';

const MODES: BufferCacheMode[] = ['lazyRelease', 'simple', 'bucket'];

/**
 * onnxruntime's WebGPU buffer manager as buffer_manager.cc and webgpu_context.cc write it, one
 * buffer at a time: a tensor's buffer is taken from the cache (its size's free buffers) or made when
 * its node starts, released after its last reader into a pending list, and the pending list goes
 * to the cache (or is destroyed) when the EP submits: after every DISPATCHES_PER_SUBMIT dispatches
 * and at the end of a run. Returns the most bytes of buffers that existed at once over `runs` runs.
 */
function simulate(
  tensors: readonly TensorLife[],
  dispatches: readonly number[],
  mode: BufferCacheMode,
  runs: number,
): number {
  const free = new Map<number, number>();
  let pending: number[] = [];
  let existing = 0;
  let most = 0;
  let count = 0;
  const submit = () => {
    for (const size of pending) {
      const kept =
        bufferSize(size, mode).kept && (mode !== 'bucket' || (free.get(size) ?? 0) < BUCKET_LIMITS.get(size)!);
      if (kept) free.set(size, (free.get(size) ?? 0) + 1);
      else existing -= size;
    }
    pending = [];
    count = 0;
  };
  const last = dispatches.length - 1;
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i <= last; i++) {
      for (const t of tensors) {
        if (Math.min(t.from, last) !== i) continue;
        const { size } = bufferSize(t.bytes, mode);
        const cached = free.get(size) ?? 0;
        if (cached > 0) free.set(size, cached - 1);
        else existing += size;
        most = Math.max(most, existing);
      }
      for (let d = 0; d < dispatches[i]!; d++) if (++count === DISPATCHES_PER_SUBMIT) submit();
      for (const t of tensors)
        if (Math.max(Math.min(t.to, last), Math.min(t.from, last)) === i) pending.push(bufferSize(t.bytes, mode).size);
    }
    submit();
  }
  return most;
}

/** what the plan's live peak counts: tensors alive at once, from their node to their last reader */
const livePeak = (tensors: readonly TensorLife[], nodes: number) => {
  let most = 0;
  for (let i = 0; i < nodes; i++) {
    let now = 0;
    for (const t of tensors)
      if (Math.min(t.from, nodes - 1) <= i && i <= Math.max(t.to, t.from)) now += aligned(t.bytes);
    most = Math.max(most, now);
  }
  return most;
};

// sizes around the buckets' edges as well as anywhere up to past the largest bucket
const bytes = fc.oneof(
  fc.integer({ min: 1, max: 2 ** 28 }),
  fc.constantFrom(...BUCKET_LIMITS.keys()).chain((b) => fc.integer({ min: b - 16, max: b + 16 })),
);

/**
 * a graph's dispatch counts per node: 0 for a view; a node onnxruntime fused into the one before it
 * dispatches nothing either, but never two in a row (at most two graph nodes share a dispatch)
 */
const graph = fc.integer({ min: 1, max: 100 }).chain((nodes) =>
  fc.record({
    kinds: fc.array(fc.constantFrom('view', 'fused', 'fused', 'one', 'one', 'two', 'three'), {
      minLength: nodes,
      maxLength: nodes,
    }),
    tensors: fc.array(
      fc.record({
        bytes,
        from: fc.integer({ min: 0, max: nodes - 1 }),
        len: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: nodes + 2 })),
      }),
      { maxLength: 60 },
    ),
  }),
);

const dispatchesOf = (kinds: readonly string[]) => {
  let fusedBefore = true;
  return kinds.map((k) => {
    if (k === 'view') return { dispatching: false, dispatches: 0 };
    const fused = k === 'fused' && !fusedBefore;
    fusedBefore = fused;
    return { dispatching: true, dispatches: fused ? 0 : k === 'two' ? 2 : k === 'three' ? 3 : 1 };
  });
};

describe('the WebGPU EP buffer bound', () => {
  it('bounds what the buffer manager holds over repeated runs, in every cache mode, and the live peak', () => {
    fc.assert(
      fc.property(graph, fc.constantFrom(...MODES), ({ kinds, tensors: ts }, mode) => {
        const nodes = dispatchesOf(kinds);
        const tensors = ts.map((t) => ({ bytes: t.bytes, from: t.from, to: t.from + t.len }));
        const bound = heldBytes([
          bufferDemand(
            tensors,
            nodes.map((n) => n.dispatching),
            mode,
          ),
        ]);
        expect(bound).toBeGreaterThanOrEqual(
          simulate(
            tensors,
            nodes.map((n) => n.dispatches),
            mode,
            3,
          ),
        );
        expect(bound).toBeGreaterThanOrEqual(livePeak(tensors, kinds.length));
      }),
      { numRuns: 400 },
    );
  });

  it('keeping buffers (simple, bucket) never plans less than destroying them (lazyRelease)', () => {
    fc.assert(
      fc.property(graph, ({ kinds, tensors: ts }) => {
        const dispatching = dispatchesOf(kinds).map((n) => n.dispatching);
        const tensors = ts.map((t) => ({ bytes: t.bytes, from: t.from, to: t.from + t.len }));
        const [lazy, simple, bucket] = MODES.map((m) => heldBytes([bufferDemand(tensors, dispatching, m)]));
        expect(simple).toBeGreaterThanOrEqual(lazy!);
        expect(bucket).toBeGreaterThanOrEqual(lazy!);
      }),
    );
  });

  it('a bucket holds the request, is 16-byte aligned and grows with it', () => {
    fc.assert(
      fc.property(bytes, bytes, fc.constantFrom(...MODES), (a, b, mode) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const s = bufferSize(lo, mode).size;
        expect(s).toBeGreaterThanOrEqual(lo);
        expect(s % 16).toBe(0);
        expect(bufferSize(hi, mode).size).toBeGreaterThanOrEqual(s);
      }),
    );
    // onnxruntime's table: 20 MiB takes the 25 MiB bucket; past 160 MiB nothing is kept
    expect(bufferSize(20 * 2 ** 20, 'bucket')).toEqual({ size: 26214400, kept: true });
    expect(bufferSize(160 * 2 ** 20 + 1, 'bucket')).toEqual({ size: 160 * 2 ** 20 + 16, kept: false });
  });

  it('sessions on one device share the cache: a size counts at the most any graph needs', () => {
    const a = new Map([[1024, 3]]);
    const b = new Map([
      [1024, 2],
      [2048, 1],
    ]);
    expect(heldBytes([a, b])).toBe(3 * 1024 + 2048);
  });
});
