// onnxruntime-web backend (browser worker, or Node for the WASM parity tests): wasm and webgpu.
import * as ort from 'onnxruntime-web';
import { wrapSession } from './ort-session.ts';
import { encodeModel } from '../onnx/onnx-proto.ts';
import { UnsupportedDeviceError, type InferenceBackend } from './types.ts';
import { webgpuHasShaderF16 } from './webgpu-features.ts';

export interface WebBackendOptions {
  /** where the ort-wasm-*.wasm files are served from (browser builds) */
  wasmPaths?: string;
}

export function webBackend(opts: WebBackendOptions = {}): InferenceBackend {
  if (opts.wasmPaths) ort.env.wasm.wasmPaths = opts.wasmPaths;
  return {
    devices: ['wasm', 'webgpu'],
    async createSession(model, { device, threads, float16 }) {
      if (device === 'cpu') throw new UnsupportedDeviceError('onnxruntime-web has no "cpu" device; use "wasm" or "webgpu"');
      if (device === 'webgpu' && float16 && !(await webgpuHasShaderF16())) {
        throw new UnsupportedDeviceError('this WebGPU adapter has no shader-f16, which float16 needs: float16 runs on "wasm" here');
      }
      // numThreads must be set before the first session; 1 avoids needing cross-origin isolation
      ort.env.wasm.numThreads = threads ?? 1;
      const externalData = [...model.externalData].map(([path, s]) => {
        if (s.kind !== 'bytes') throw new UnsupportedDeviceError(`onnxruntime-web cannot read ${s.path} itself: hand it the bytes`);
        return { path, data: s.data };
      });
      const session = await ort.InferenceSession.create(encodeModel(model.model), { executionProviders: [device], graphOptimizationLevel: 'all', ...(externalData.length ? { externalData } : {}) });
      return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]));
    },
  };
}
