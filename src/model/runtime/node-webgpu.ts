// The preview page's WebGPU path in Node: onnxruntime-web's native WebGPU EP build
// (`onnxruntime-web/webgpu`, asyncify wasm) on whatever WebGPU the caller put in
// `navigator.gpu` (the GPU bench: Dawn's Node binding, the `webgpu` package).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as ort from 'onnxruntime-web/webgpu';
import type { InferenceBackend } from './types.ts';
import { inMemory } from './node.ts';
import { ortWebBackend } from './web-session.ts';

export async function nodeWebgpuBackend(): Promise<InferenceBackend> {
  // no URL to fetch the wasm from in Node: its bytes, as the page's bundle would fetch them
  const wasm = createRequire(import.meta.url).resolve('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm');
  ort.env.wasm.wasmBinary = await readFile(wasm);
  const web = ortWebBackend(ort);
  return {
    devices: ['webgpu'],
    webgpuAttention: web.webgpuAttention!,
    createSession: async (model, opts) => web.createSession(await inMemory(model), opts),
  };
}
