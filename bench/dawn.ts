// WebGPU for Node from Dawn's binding (the `webgpu` package): `navigator.gpu` as a page has it.
// Without a GPU, SwiftShader through Chromium's Vulkan ICD: VK_DRIVER_FILES and, where the
// system has no Vulkan loader, LD_LIBRARY_PATH pointing at Chromium's (`GPU_BENCH_SWIFTSHADER=1` sets both).
// GPU_BENCH_DAWN_FLAGS: Dawn's own flags, space-separated (e.g. `enable-dawn-features=vulkan_enable_f16_on_nvidia`).

export interface AdapterFacts {
  vendor: string;
  architecture: string;
  description: string;
  fallback: boolean;
  shaderF16: boolean;
  /** the adapter has 'subgroups': with subgroupMinSize, which attention kernel the model builds (attentionKernelFor) */
  subgroups: boolean;
  subgroupMinSize: number | null;
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  /** the flags Dawn was created with */
  dawnFlags: string[];
}

type Globals = Record<string, { prototype: Record<string, unknown> } | undefined>;

/**
 * onnxruntime-web uploads tensors with queue.writeBuffer(buffer, offset, wasmMemory, ...), and its
 * wasm memory may be a SharedArrayBuffer: a browser accepts that, Dawn's Node binding refuses it
 * ("no overload matched"). Such a source is copied into a plain buffer first; nothing else changes.
 */
function acceptSharedSources(globals: Globals): void {
  const proto = globals.GPUQueue?.prototype;
  if (!proto) return;
  const write = proto.writeBuffer as (...a: unknown[]) => unknown;
  proto.writeBuffer = function (this: unknown, ...a: unknown[]) {
    const [buffer, offset, data, dataOffset, size] = a as [
      unknown,
      number,
      ArrayBufferLike | ArrayBufferView,
      number?,
      number?,
    ];
    const view = ArrayBuffer.isView(data);
    const backing = view ? data.buffer : data;
    if (!(backing instanceof SharedArrayBuffer)) return write.apply(this, a);
    const el = view ? ((data as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1) : 1;
    const start = (view ? data.byteOffset : 0) + (dataOffset ?? 0) * el;
    const length = size !== undefined ? size * el : (view ? data.byteLength : data.byteLength) - (dataOffset ?? 0) * el;
    return write.call(this, buffer, offset, new Uint8Array(backing, start, length).slice());
  };
}

/** bytes of the GPU buffers made and not yet destroyed, and the most seen, by whoever made them */
export const gpuBuffers = { live: 0, peak: 0, made: 0 };

/**
 * Counts what GPU memory the page's code asks for: every buffer made (its size) until destroyed.
 * The adapter's own overheads (on SwiftShader, host memory) are not in it.
 */
function countBuffers(globals: Globals): void {
  const device = globals.GPUDevice?.prototype;
  const buffer = globals.GPUBuffer?.prototype;
  if (!device || !buffer) return;
  const live = new WeakSet<object>();
  const create = device.createBuffer as (...a: unknown[]) => { size: number };
  device.createBuffer = function (this: unknown, ...a: unknown[]) {
    const b = create.apply(this, a);
    live.add(b);
    gpuBuffers.made++;
    gpuBuffers.live += b.size;
    gpuBuffers.peak = Math.max(gpuBuffers.peak, gpuBuffers.live);
    return b;
  };
  const destroy = buffer.destroy as (...a: unknown[]) => unknown;
  buffer.destroy = function (this: { size: number }, ...a: unknown[]) {
    if (live.delete(this)) gpuBuffers.live -= this.size;
    return destroy.apply(this, a);
  };
}

/** sets globalThis.navigator.gpu; null when Dawn finds no adapter */
export async function installDawn(): Promise<AdapterFacts | null> {
  const { create, globals } = (await import('webgpu')) as unknown as {
    create(flags: string[]): { requestAdapter(): Promise<DawnAdapter | null> };
    globals: Globals;
  };
  Object.assign(globalThis, globals);
  acceptSharedSources(globals);
  countBuffers(globals);
  const dawnFlags = (process.env.GPU_BENCH_DAWN_FLAGS ?? '').split(' ').filter(Boolean);
  const gpu = create(dawnFlags);
  const a = await gpu.requestAdapter();
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
  if (!a) return null;
  return {
    vendor: a.info.vendor ?? '',
    architecture: a.info.architecture ?? '',
    description: a.info.description ?? '',
    fallback: Boolean(a.info.isFallbackAdapter ?? a.isFallbackAdapter),
    shaderF16: a.features.has('shader-f16'),
    subgroups: a.features.has('subgroups'),
    subgroupMinSize: a.info.subgroupMinSize ?? null,
    maxBufferSize: a.limits.maxBufferSize ?? 0,
    maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize ?? 0,
    dawnFlags,
  };
}

interface DawnAdapter {
  info: {
    vendor?: string;
    architecture?: string;
    description?: string;
    isFallbackAdapter?: boolean;
    subgroupMinSize?: number;
  };
  isFallbackAdapter?: boolean;
  features: Set<string>;
  limits: Record<string, number | undefined>;
}
