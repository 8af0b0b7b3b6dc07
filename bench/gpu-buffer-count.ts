// Counts the GPU buffers whoever runs in this realm makes (onnxruntime's WebGPU EP included), at
// GPUDevice.createBuffer and GPUBuffer.destroy: each buffer's size from its making until destroyed.
// Mappable buffers (MAP_READ or MAP_WRITE: uploads' and read-backs' staging) are also counted apart.
// Used by Dawn in Node (bench/dawn.ts) and by the VAE bench's page (e2e/vae-page-entry.ts).

/** bytes of the buffers made and not yet destroyed, and the most seen since the last mark */
export interface GpuBufferCount {
  live: number;
  peak: number;
  made: number;
  /** bytes of every buffer made, destroyed or not */
  madeBytes: number;
  /** of `live`: mappable (staging) buffers */
  mappableLive: number;
  /** the most `live` less `mappableLive` since the last mark: the storage buffers (weights, activations) */
  storagePeak: number;
  /** starts a new peak from what is live now */
  mark(): void;
}

/** GPUBufferUsage.MAP_READ | MAP_WRITE */
const MAPPABLE = 0x1 | 0x2;

type Proto = Record<string, unknown>;

/** counts from now on; `device` and `buffer` are GPUDevice.prototype and GPUBuffer.prototype (absent: nothing counted) */
export function countGpuBuffers(device: Proto | undefined, buffer: Proto | undefined): GpuBufferCount {
  const count: GpuBufferCount = {
    live: 0,
    peak: 0,
    made: 0,
    madeBytes: 0,
    mappableLive: 0,
    storagePeak: 0,
    mark() {
      count.peak = count.live;
      count.storagePeak = count.live - count.mappableLive;
    },
  };
  if (!device || !buffer) return count;
  const live = new WeakMap<object, boolean>();
  const create = device.createBuffer as (...a: unknown[]) => { size: number };
  device.createBuffer = function (this: unknown, ...a: unknown[]) {
    const b = create.apply(this, a);
    const usage = (a[0] as { usage?: number } | undefined)?.usage ?? 0;
    const mappable = (usage & MAPPABLE) !== 0;
    live.set(b, mappable);
    count.made++;
    count.madeBytes += b.size;
    count.live += b.size;
    if (mappable) count.mappableLive += b.size;
    count.peak = Math.max(count.peak, count.live);
    count.storagePeak = Math.max(count.storagePeak, count.live - count.mappableLive);
    return b;
  };
  const destroy = buffer.destroy as (...a: unknown[]) => unknown;
  buffer.destroy = function (this: { size: number }, ...a: unknown[]) {
    const mappable = live.get(this);
    if (mappable !== undefined) {
      live.delete(this);
      count.live -= this.size;
      if (mappable) count.mappableLive -= this.size;
    }
    return destroy.apply(this, a);
  };
  return count;
}
