// Wraps an onnxruntime InferenceSession (node or web: same API shape) as a BackendSession, with
// device tensors: host handles everywhere, GPU-buffer handles where the caller passes `gpu`.
import { isDeviceTensor, type BackendSession, type DeviceTensor, type Feed, type FloatTensor } from './types.ts';
import type { GpuAccess } from './webgpu-buffers.ts';
import type { OrtSessionLike, OrtTensorLike } from './ort-like.ts';

class Handle implements DeviceTensor {
  readonly dtype = 'float32';
  #disposed = false;

  constructor(
    readonly dims: readonly number[],
    readonly location: DeviceTensor['location'],
    /** what a session is fed for it: the onnxruntime tensor over its GPU buffer, or its host data */
    readonly source: { ort: unknown } | { host: FloatTensor },
    private readonly read: () => Promise<Float32Array>,
    private readonly free: () => void,
  ) {}

  get disposed(): boolean {
    return this.#disposed;
  }

  check(use: string): void {
    if (this.#disposed) throw new Error(`a disposed device tensor (${this.dims.join(' x ')}) cannot be ${use}`);
  }

  download(): Promise<Float32Array> {
    this.check('downloaded');
    return this.read();
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.free();
  }
}

/** host data as a device tensor (CPU, WASM): download copies it, so the caller may transfer what it gets */
export const hostTensor = (t: FloatTensor): DeviceTensor =>
  new Handle(
    [...t.dims],
    'cpu',
    { host: t },
    async () => t.data.slice(),
    () => undefined,
  );

function gpuTensor(ort: OrtTensorLike, buffer: unknown, gpu: GpuAccess, free: () => void): DeviceTensor {
  const dims = [...ort.dims];
  const bytes = dims.reduce((a, b) => a * b, 1) * 4;
  return new Handle(dims, 'gpu-buffer', { ort }, () => gpu.read(buffer, bytes), free);
}

const isOnGpu = (t: OrtTensorLike) => t.location === 'gpu-buffer';

export function wrapSession(
  session: OrtSessionLike,
  makeTensor: (t: FloatTensor) => unknown,
  gpu?: GpuAccess,
): BackendSession {
  const ortFeeds = (feeds: Readonly<Record<string, Feed>>) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(feeds)) {
      if (!isDeviceTensor(v)) out[k] = makeTensor(v);
      else if (v instanceof Handle) {
        v.check(`fed to "${k}"`);
        out[k] = 'ort' in v.source ? v.source.ort : makeTensor(v.source.host);
      } else throw new Error(`input "${k}": a device tensor of another runtime`);
    }
    return out;
  };
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    async run(feeds) {
      const out = await session.run(ortFeeds(feeds));
      const result: Record<string, FloatTensor> = {};
      for (const [k, v] of Object.entries(out)) {
        // an output the session keeps on the GPU (deviceOutputs) is read back and freed: run() returns host data
        const data = isOnGpu(v) ? ((await v.getData!(true)) as Float32Array) : (v.data as Float32Array);
        result[k] = { data, dims: [...v.dims] };
      }
      return result;
    },
    async runOnDevice(feeds) {
      const out = await session.run(ortFeeds(feeds));
      const result: Record<string, DeviceTensor> = {};
      for (const [k, v] of Object.entries(out)) {
        result[k] =
          gpu && isOnGpu(v)
            ? gpuTensor(v, v.gpuBuffer, gpu, () => v.dispose?.())
            : hostTensor({ data: v.data as Float32Array, dims: v.dims });
      }
      return result;
    },
    async upload(t) {
      if (!gpu) return hostTensor(t);
      const { buffer, tensor, destroy } = await gpu.upload(t);
      return gpuTensor(tensor, buffer, gpu, destroy);
    },
    release: () => session.release(),
  };
}
