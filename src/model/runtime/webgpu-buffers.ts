// GPU buffers of onnxruntime-web's WebGPU device: host data uploaded as an input buffer, and an
// output buffer read back to the host without turning onnxruntime's tensor into a host tensor
// (its getData() would, and the next run would upload it again).
import type { OrtTensorLike } from './ort-like.ts';
import type { FloatTensor } from './types.ts';

interface GpuBufferLike {
  mapAsync(mode: number): Promise<void>;
  getMappedRange(): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

export interface GpuDeviceLike {
  createBuffer(desc: { size: number; usage: number; mappedAtCreation?: boolean }): GpuBufferLike;
  createCommandEncoder(): {
    copyBufferToBuffer(src: unknown, srcOffset: number, dst: unknown, dstOffset: number, size: number): void;
    finish(): unknown;
  };
  queue: { submit(commands: unknown[]): void };
}

// GPUBufferUsage and GPUMapMode flags (the globals exist only where WebGPU does)
const MAP_READ = 0x1;
const COPY_SRC = 0x4;
const COPY_DST = 0x8;
const STORAGE = 0x80;

/** onnxruntime-web pads its buffers to 16 bytes, and reads inputs as if padded */
const padded = (bytes: number) => Math.ceil(bytes / 16) * 16;

export interface GpuAccess {
  /** resolves the device, so that read() copies synchronously */
  ready(): Promise<void>;
  /** the first `bytes` of a GPU buffer as they are now: the copy is queued before read() returns (once ready) */
  read(buffer: unknown, bytes: number): Promise<Float32Array>;
  /** a GPU buffer holding `t`, as an onnxruntime tensor; `destroy` frees the buffer */
  upload(t: FloatTensor): Promise<{ buffer: unknown; tensor: OrtTensorLike; destroy(): void }>;
}

/**
 * `device`: the GPUDevice onnxruntime's WebGPU EP runs on (`ort.env.webgpu.device`, set once its first
 * session exists); `fromGpuBuffer`: `ort.Tensor.fromGpuBuffer` for float32.
 */
export function gpuAccess(
  device: () => Promise<GpuDeviceLike>,
  fromGpuBuffer: (buffer: unknown, dims: readonly number[]) => OrtTensorLike,
): GpuAccess {
  let known: GpuDeviceLike | undefined;
  const resolved = async () => (known ??= await device());
  const access: GpuAccess = {
    ready: async () => void (await resolved()),
    read(buffer, bytes) {
      if (!known) return resolved().then(() => access.read(buffer, bytes));
      // queued now, before any later run can reuse the buffer (the caller may dispose it right away)
      const staging = known.createBuffer({ size: padded(bytes), usage: MAP_READ | COPY_DST });
      const enc = known.createCommandEncoder();
      enc.copyBufferToBuffer(buffer, 0, staging, 0, padded(bytes));
      known.queue.submit([enc.finish()]);
      return (async () => {
        try {
          await staging.mapAsync(MAP_READ);
          return new Float32Array(staging.getMappedRange().slice(0, bytes));
        } finally {
          staging.destroy();
        }
      })();
    },
    async upload(t) {
      const d = await resolved();
      const buffer = d.createBuffer({
        size: padded(t.data.byteLength),
        usage: STORAGE | COPY_SRC | COPY_DST,
        mappedAtCreation: true,
      });
      new Float32Array(buffer.getMappedRange(), 0, t.data.length).set(t.data);
      buffer.unmap();
      return { buffer, tensor: fromGpuBuffer(buffer, t.dims), destroy: () => buffer.destroy() };
    },
  };
  return access;
}
