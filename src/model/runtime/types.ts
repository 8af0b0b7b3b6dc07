// Provider-agnostic inference interface: the model code only sees these types.
import type { ModelDef } from '../onnx/onnx-proto.ts';
import type { AttentionKernel } from '../graph/context.ts';

export type Device = 'cpu' | 'wasm' | 'webgpu';

export interface FloatTensor {
  data: Float32Array;
  dims: readonly number[];
}

/** where a device tensor's data is: host memory (CPU, WASM), or a GPU buffer of the session's WebGPU device */
export type TensorLocation = 'cpu' | 'gpu-buffer';

/**
 * A float32 tensor a session left where it computed it (an opaque handle). On WebGPU, outputs named
 * in `SessionOptions.deviceOutputs` stay in GPU buffers, and uploaded inputs are GPU buffers; on CPU
 * and WASM a handle just wraps host data, so callers have one code path. Feed a handle to any
 * session on the same device (no copy); read it back only when the data is needed on the host.
 * The owner disposes it once no session needs it; a disposed handle refuses to be downloaded or fed.
 */
export interface DeviceTensor {
  readonly dims: readonly number[];
  readonly dtype: 'float32';
  readonly location: TensorLocation;
  readonly disposed: boolean;
  /** a copy of the data on the host, which the caller owns (a GPU read-back on WebGPU) */
  download(): Promise<Float32Array>;
  /** frees the data (the GPU buffer); a second call does nothing */
  dispose(): void;
}

/** what a session takes for one input: host data (uploaded for this run) or a device tensor (used in place) */
export type Feed = FloatTensor | DeviceTensor;

export const isDeviceTensor = (f: Feed): f is DeviceTensor => 'download' in f;

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
   * (default: true on cpu, false on wasm): on cpu it makes forwards faster for a slower session
   * creation, on wasm it slows the session for no faster forwards (src/model/README.md, `prepack`).
   */
  prepack?: boolean;
  /**
   * cpu: onnxruntime's CPU memory arena (default true). Off, freed run-time tensors go back to the
   * allocator between nodes and runs: the VAE's decode takes it off for a lower peak RSS at about the
   * same CPU time (docs/vae.md, "CPU memory"); ignored on wasm and WebGPU.
   */
  memArena?: boolean;
  /**
   * outputs that `runOnDevice` leaves on the device (WebGPU: onnxruntime-web's `preferredOutputLocation:
   * 'gpu-buffer'`); `run` still reads them back. Ignored on CPU and WASM, where outputs are host data.
   */
  deviceOutputs?: readonly string[];
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
  /** runs with host or device feeds; every output comes back as a device tensor the caller disposes */
  runOnDevice(feeds: Readonly<Record<string, Feed>>): Promise<Record<string, DeviceTensor>>;
  /** host data copied to this session's device once, to feed many runs (of any session on that device) */
  upload(t: FloatTensor): Promise<DeviceTensor>;
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
