// Which execution provider the page uses: WebGPU when navigator.gpu gives an adapter, else WASM.
import type { Device } from './protocol.ts';
import type { WeightPrecision } from '../../model/index.ts';

export interface AdapterInfo {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
}

export interface ProviderProbe {
  webgpu: boolean;
  /** the adapter has `shader-f16`, which float16 graphs need on WebGPU */
  shaderF16: boolean;
  /** one line saying what was found and what runs */
  reason: string;
  adapter: AdapterInfo | null;
}

interface GpuLike {
  requestAdapter(): Promise<{ info?: Partial<AdapterInfo>; features?: { has(name: string): boolean } } | null>;
}

export async function probeWebGPU(nav: { gpu?: unknown } = navigator as { gpu?: unknown }): Promise<ProviderProbe> {
  const gpu = nav.gpu as GpuLike | undefined;
  if (!gpu)
    return {
      webgpu: false,
      shaderF16: false,
      adapter: null,
      reason: 'WASM: this browser does not offer WebGPU (navigator.gpu is missing), so the model runs on WebAssembly.',
    };
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter)
      return {
        webgpu: false,
        shaderF16: false,
        adapter: null,
        reason: 'WASM: WebGPU is there but no GPU adapter is available, so the model runs on WebAssembly.',
      };
    const i = adapter.info ?? {};
    const info: AdapterInfo = {
      vendor: i.vendor ?? '',
      architecture: i.architecture ?? '',
      device: i.device ?? '',
      description: i.description ?? '',
    };
    const name =
      [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' / ') || 'unnamed adapter';
    return {
      webgpu: true,
      shaderF16: Boolean(adapter.features?.has('shader-f16')),
      adapter: info,
      reason: `WebGPU: adapter ${name}.`,
    };
  } catch (e) {
    return {
      webgpu: false,
      shaderF16: false,
      adapter: null,
      reason: `WASM: the WebGPU adapter request failed (${(e as Error).message}), so the model runs on WebAssembly.`,
    };
  }
}

export type ProviderChoice = 'auto' | Device;

export function chooseDevice(choice: ProviderChoice, probe: ProviderProbe): Device {
  if (choice === 'auto') return probe.webgpu ? 'webgpu' : 'wasm';
  return choice;
}

/** float16 where WebGPU runs it (the adapter has shader-f16), else float32 */
export const defaultPrecision = (device: Device, probe: ProviderProbe): WeightPrecision =>
  device === 'webgpu' && probe.shaderF16 ? 'float16' : 'float32';
