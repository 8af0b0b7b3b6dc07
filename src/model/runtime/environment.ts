// What differs between browser and Node: the inference backend and local-folder access.
import type { FileSource } from '../io/file-source.ts';
import type { Device, InferenceBackend } from './types.ts';

export interface ModelEnvironment {
  backend(): Promise<InferenceBackend>;
  /** a FileSource for a local folder, or null when `path` is not one (browser: always null) */
  localSource(path: string): Promise<FileSource | null>;
  defaultDevice: Device;
}

/** onnxruntime-web, loaded on first use; `wasmPaths` says where the ort-wasm-*.wasm files are served */
function browserEnvironmentWith(opts: { wasmPaths?: string; defaultDevice?: Device } = {}): ModelEnvironment {
  return {
    backend: async () => (await import('./web.ts')).webBackend(opts.wasmPaths ? { wasmPaths: opts.wasmPaths } : {}),
    localSource: async () => null,
    defaultDevice: opts.defaultDevice ?? 'wasm',
  };
}

// pure: a page that imports the model but runs nothing leaves onnxruntime-web out of its bundle
export const browserEnvironment: ModelEnvironment = /* @__PURE__ */ browserEnvironmentWith();

/** onnxruntime-web with its WASM files served from the app's own origin (Vite builds only), loaded on first use */
export const bundledWebBackend = async (): Promise<InferenceBackend> =>
  (await import('./web-assets.ts')).bundledWebBackend();

/** the browser environment with onnxruntime-web as the app bundles it (its WASM files from the app's origin; Vite builds only) */
export const bundledWebEnvironment: ModelEnvironment = {
  backend: bundledWebBackend,
  localSource: async () => null,
  defaultDevice: 'wasm',
};
