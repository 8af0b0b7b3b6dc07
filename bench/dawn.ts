// WebGPU for Node from Dawn's binding (the `webgpu` package): `navigator.gpu` as a page has it.
// Without a GPU, SwiftShader through Chromium's Vulkan ICD: VK_DRIVER_FILES and, where the
// system has no Vulkan loader, LD_LIBRARY_PATH pointing at Chromium's (`GPU_BENCH_SWIFTSHADER=1` sets both).
// GPU_BENCH_DAWN_FLAGS: Dawn's own flags, space-separated (e.g. `enable-dawn-features=vulkan_enable_f16_on_nvidia`).

import { countGpuBuffers, type GpuBufferCount } from './gpu-buffer-count.ts';

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

/**
 * Every GPU buffer made (its size) until destroyed, from installDawn on: what GPU memory the code asks
 * for. The adapter's own overheads (on SwiftShader, host memory) are not in it.
 */
export let gpuBuffers: GpuBufferCount = countGpuBuffers(undefined, undefined);

/** sets globalThis.navigator.gpu; null when Dawn finds no adapter */
export async function installDawn(): Promise<AdapterFacts | null> {
  const { create, globals } = (await import('webgpu')) as unknown as {
    create(flags: string[]): { requestAdapter(): Promise<DawnAdapter | null> };
    globals: Globals;
  };
  Object.assign(globalThis, globals);
  acceptSharedSources(globals);
  gpuBuffers = countGpuBuffers(globals.GPUDevice?.prototype, globals.GPUBuffer?.prototype);
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
