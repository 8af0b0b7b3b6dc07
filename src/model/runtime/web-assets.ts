// Browser builds (Vite) only: onnxruntime-web with its WASM binaries served from the app's own
// origin (the page's CSP allows 'self' and there may be no network to a CDN); the `?url` imports
// make Vite emit the .wasm files as assets. Each device loads the build that serves it best:
// - "wasm": the JSPI build, which reads external data given as a Blob slice by slice while the
//   session is created, so cached weights reach the session without a whole copy in memory;
// - "webgpu": `onnxruntime-web/webgpu`, onnxruntime's C++ WebGPU EP built for the web (asyncify):
//   its attention is flash attention (no tokens-squared buffer), faster than the JSEP build and as
//   exact; docs/model-webgpu.md has the comparison.
import type * as Ort from 'onnxruntime-web';
import type { InferenceBackend } from './types.ts';
import { ortWebBackend } from './web-session.ts';

type Build = { ort: typeof Ort; wasmUrl: string };

const builds: Record<'wasm' | 'webgpu', () => Promise<Build>> = {
  wasm: async () => ({
    ort: await import('onnxruntime-web/jspi'),
    wasmUrl: (await import('onnxruntime-web/ort-wasm-simd-threaded.jspi.wasm?url')).default,
  }),
  webgpu: async () => ({
    ort: await import('onnxruntime-web/webgpu'),
    wasmUrl: (await import('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url')).default,
  }),
};

export function bundledWebBackend(): InferenceBackend {
  const backends = new Map<string, Promise<InferenceBackend>>();
  const backendFor = (device: 'wasm' | 'webgpu') => {
    let b = backends.get(device);
    if (!b) {
      b = builds[device]().then(({ ort, wasmUrl }) => {
        ort.env.wasm.wasmPaths = { wasm: new URL(wasmUrl, globalThis.location.href).href };
        return ortWebBackend(ort);
      });
      backends.set(device, b);
    }
    return b;
  };
  return {
    devices: ['wasm', 'webgpu'],
    webgpuAttention: async () => (await backendFor('webgpu')).webgpuAttention!(),
    async createSession(model, opts) {
      return (await backendFor(opts.device === 'webgpu' ? 'webgpu' : 'wasm')).createSession(model, opts);
    },
  };
}
