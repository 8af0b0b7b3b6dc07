// Node backend: onnxruntime-node for "cpu", onnxruntime-web's WASM build for "wasm".
import * as ort from 'onnxruntime-node';
import { wrapSession } from './ort-session.ts';
import { UnsupportedDeviceError, type InferenceBackend } from './types.ts';
import { webBackend } from './web.ts';

export function nodeBackend(): InferenceBackend {
  const web = webBackend();
  return {
    devices: ['cpu', 'wasm'],
    async createSession(model, opts) {
      if (opts.device === 'wasm') return web.createSession(model, opts);
      if (opts.device !== 'cpu') throw new UnsupportedDeviceError(`device "${opts.device}" is not available in Node; use "cpu" or "wasm"`);
      const session = await ort.InferenceSession.create(model, {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        ...(opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : {}),
        extra: { session: { intra_op: { allow_spinning: opts.spin ? '1' : '0' } } },
      });
      return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]));
    },
  };
}

/** runs an ONNX file from disk (external data resolved next to it) on onnxruntime-node */
export async function runOnnxFile(file: string, feeds: Readonly<Record<string, { data: Float32Array; dims: readonly number[] }>>): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>> {
  const session = await ort.InferenceSession.create(file, { executionProviders: ['cpu'] });
  try {
    return await wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims])).run(feeds);
  } finally {
    await session.release();
  }
}
