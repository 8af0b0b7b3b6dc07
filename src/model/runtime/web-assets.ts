// Browser builds (Vite) only: onnxruntime-web's WASM binary served from the app's own origin
// (the page's CSP allows 'self' and there may be no network to a CDN). The `?url` import makes
// Vite emit the .wasm as an asset; the JSEP build runs both the "wasm" and "webgpu" devices.
import * as ort from 'onnxruntime-web';
import jsepWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.wasm?url';
import { webBackend } from './web.ts';
import type { InferenceBackend } from './types.ts';

export function bundledWebBackend(): InferenceBackend {
  ort.env.wasm.wasmPaths = { wasm: new URL(jsepWasmUrl, globalThis.location.href).href };
  return webBackend();
}
