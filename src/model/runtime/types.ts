// Provider-agnostic inference interface: the model code only sees these types.
import type { ModelDef } from '../onnx/onnx-proto.ts';
import type { AttentionKernel } from '../graph/attention.ts';

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
  /** the graph computes in float16 (WebGPU needs the adapter's shader-f16 for it) */
  float16?: boolean;
  /**
   * Let onnxruntime rearrange constant weights for its CPU kernels when the session is made
   * (default: true on cpu, false on wasm). On preview-s, onnxruntime-node: float32 session creation
   * 0.65 s prepacked vs 0.2 s not, forwards 2.5% faster prepacked; the quantized products are over
   * 30% slower unprepacked. onnxruntime-web's WASM build: float32 sessions 1.1-1.8 s faster
   * unprepacked, forwards no slower (int8/int4 the same either way).
   */
  prepack?: boolean;
}

/** where the bytes of one external-data location are */
export type ExternalDataSource =
  /** a file onnxruntime reads (maps) itself: Node only */
  | { kind: 'path'; path: string }
  /** bytes in memory: a checkpoint file a source delivered whole, tensors read in parts, computed tensors */
  | { kind: 'bytes'; data: Uint8Array }
  /** a file onnxruntime-web reads slice by slice while it creates the session (browser) */
  | { kind: 'blob'; data: Blob };

/**
 * A model as a session takes it: the graph, whose large initializers are ONNX external data
 * (location, offset, length), and where each location's bytes are. Weights go from there to the
 * session once, never through one big in-memory protobuf.
 */
export interface SessionModel {
  model: ModelDef;
  externalData: ReadonlyMap<string, ExternalDataSource>;
}

export interface BackendSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Readonly<Record<string, FloatTensor>>): Promise<Record<string, FloatTensor>>;
  release(): Promise<void>;
}

export interface InferenceBackend {
  readonly devices: readonly Device[];
  createSession(model: SessionModel, opts: SessionOptions): Promise<BackendSession>;
  /** how graphs for this backend's WebGPU adapter write attention to run exactly (absent: fused) */
  webgpuAttention?(): Promise<AttentionKernel>;
}

export class UnsupportedDeviceError extends Error {
  override name = 'UnsupportedDeviceError';
}
