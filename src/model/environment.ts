// What differs between browser and Node: the inference backend and local-folder access.
import type { FileSource } from './loader/file-source';
import type { Device, InferenceBackend } from './runtime/types';

export interface ModelEnvironment {
  backend(): Promise<InferenceBackend>;
  /** a FileSource for a local folder, or null when `path` is not one (browser: always null) */
  localSource(path: string): Promise<FileSource | null>;
  defaultDevice: Device;
}

export const browserEnvironment: ModelEnvironment = {
  backend: async () => (await import('./runtime/web')).webBackend(),
  localSource: async () => null,
  defaultDevice: 'wasm',
};
