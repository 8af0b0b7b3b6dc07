// onnxruntime-web backend (Node for the WASM parity tests, or a browser that sets wasmPaths).
import * as ort from 'onnxruntime-web';
import type { InferenceBackend } from './types.ts';
import { ortWebBackend } from './web-session.ts';

export interface WebBackendOptions {
  /** where the ort-wasm-*.wasm files are served from (browser builds) */
  wasmPaths?: string;
}

export function webBackend(opts: WebBackendOptions = {}): InferenceBackend {
  if (opts.wasmPaths) ort.env.wasm.wasmPaths = opts.wasmPaths;
  return ortWebBackend(ort);
}
