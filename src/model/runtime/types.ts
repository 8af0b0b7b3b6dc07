// Provider-agnostic inference interface: the model code only sees these types.

export type Device = 'cpu' | 'wasm' | 'webgpu';

export interface FloatTensor {
  data: Float32Array;
  dims: readonly number[];
}

export interface SessionOptions {
  device: Device;
  /** intra-op threads (cpu) or wasm threads; default: the runtime's choice */
  threads?: number;
  /** cpu: let idle intra-op threads spin (default false: spinning steals cores on shared machines) */
  spin?: boolean;
}

export interface BackendSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Readonly<Record<string, FloatTensor>>): Promise<Record<string, FloatTensor>>;
  release(): Promise<void>;
}

export interface InferenceBackend {
  readonly devices: readonly Device[];
  createSession(model: Uint8Array, opts: SessionOptions): Promise<BackendSession>;
}

export class UnsupportedDeviceError extends Error {
  override name = 'UnsupportedDeviceError';
}
