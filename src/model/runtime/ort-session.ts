// Wraps an onnxruntime InferenceSession (node or web: same API shape) as a BackendSession.
import type { BackendSession, FloatTensor } from './types.ts';

interface OrtTensorLike {
  data: unknown;
  dims: readonly number[];
}

export interface OrtSessionLike {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensorLike>>;
  release(): Promise<void>;
}

export function wrapSession(session: OrtSessionLike, makeTensor: (t: FloatTensor) => unknown): BackendSession {
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    async run(feeds) {
      const ortFeeds: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(feeds)) ortFeeds[k] = makeTensor(v);
      const out = await session.run(ortFeeds);
      const result: Record<string, FloatTensor> = {};
      for (const [k, v] of Object.entries(out)) result[k] = { data: v.data as Float32Array, dims: [...v.dims] };
      return result;
    },
    release: () => session.release(),
  };
}
