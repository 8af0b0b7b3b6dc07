// The onnxruntime-web backend over whichever onnxruntime-web build the caller imported (the
// default one in Node, JSPI or the native WebGPU EP build in the browser bundle): wasm and webgpu.
import type * as Ort from 'onnxruntime-web';
import { encodeModel } from '../onnx/onnx-proto.ts';
import { WEBGPU_BUFFER_CACHE } from '../onnx/ep-buffers.ts';
import { wrapSession } from './ort-session.ts';
import { RangeBlob } from '../io/range-blob.ts';
import { UnsupportedDeviceError, type InferenceBackend, type SessionModel } from './types.ts';
import { webgpuAttentionKernel, webgpuHasShaderF16 } from './webgpu-features.ts';
import { gpuAccess, type GpuAccess, type GpuDeviceLike } from './webgpu-buffers.ts';
import type { OrtTensorLike } from './ort-like.ts';

function firstBlobFailure(model: SessionModel): unknown {
  for (const s of model.externalData.values())
    if (s.kind === 'blob' && s.data instanceof RangeBlob && s.data.failure !== undefined) return s.data.failure;
  return undefined;
}

/** GPU buffers of the device onnxruntime's WebGPU sessions run on (set by its first WebGPU session) */
function ortGpu(ort: typeof Ort): GpuAccess {
  return gpuAccess(
    async () => (await ort.env.webgpu.device) as unknown as GpuDeviceLike,
    (buffer, dims) =>
      ort.Tensor.fromGpuBuffer(buffer as Ort.Tensor.GpuBufferType, {
        dataType: 'float32',
        dims: [...dims],
      }) as OrtTensorLike,
  );
}

export function ortWebBackend(ort: typeof Ort): InferenceBackend {
  return {
    devices: ['wasm', 'webgpu'],
    webgpuAttention: () => webgpuAttentionKernel(),
    async createSession(model, { device, threads, float16, prepack, deviceOutputs }) {
      if (device === 'cpu')
        throw new UnsupportedDeviceError('onnxruntime-web has no "cpu" device; use "wasm" or "webgpu"');
      if (device === 'webgpu' && float16 && !(await webgpuHasShaderF16())) {
        throw new UnsupportedDeviceError(
          `weights float16 need the WebGPU adapter's shader-f16, which this one lacks: use device "wasm", or weights float32, int8 or int4 on WebGPU`,
        );
      }
      // numThreads must be set before the first session; 1 avoids needing cross-origin isolation
      ort.env.wasm.numThreads = threads ?? 1;
      const externalData = [...model.externalData].map(([path, s]) => {
        if (s.kind === 'path')
          throw new UnsupportedDeviceError(`onnxruntime-web cannot read ${s.path} itself: hand it the bytes`);
        return { path, data: s.data };
      });
      let session: Ort.InferenceSession;
      try {
        session = await ort.InferenceSession.create(encodeModel(model.model), {
          // the native WebGPU EP's storage buffers: the plan bounds what this cache mode holds (ep-buffers.ts);
          // the JSEP build ignores the option
          executionProviders: [
            device === 'webgpu' ? { name: 'webgpu', storageBufferCacheMode: WEBGPU_BUFFER_CACHE } : device,
          ],
          graphOptimizationLevel: 'all',
          ...(externalData.length ? { externalData } : {}),
          ...(device === 'webgpu' && deviceOutputs?.length
            ? { preferredOutputLocation: Object.fromEntries(deviceOutputs.map((n) => [n, 'gpu-buffer' as const])) }
            : {}),
          // onnxruntime's WASM kernels gain nothing from prepacked weights, and float32 sessions take seconds longer with them
          extra: { session: { disable_prepacking: prepack === true ? '0' : '1' } },
        });
      } catch (e) {
        // onnxruntime says only that a read of external data failed: the download's (or the
        // quantization's) own error says what
        throw firstBlobFailure(model) ?? e;
      }
      if (device !== 'webgpu') return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]));
      const gpu = ortGpu(ort);
      await gpu.ready();
      return wrapSession(session, (t) => new ort.Tensor('float32', t.data, [...t.dims]), gpu);
    },
  };
}
