// Which execution provider the page uses: WebGPU when navigator.gpu gives an adapter, else WASM;
// and what the adapter allows (limits, features), which decides what fits before any download.
import type { AdapterReport, Device, PrecisionFit } from './worker/protocol.ts';
import type { WeightPrecision } from '../../model/index.ts';

export interface AdapterInfo {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
}

/** what the probe found: the adapter's limits (those it reports) and features as the plan takes them, and what runs */
export interface ProviderProbe extends AdapterReport {
  webgpu: boolean;
  /** one line saying what was found and what runs */
  reason: string;
  adapter: AdapterInfo | null;
}

interface GpuLike {
  requestAdapter(): Promise<{
    info?: Partial<AdapterInfo> & { subgroupMinSize?: number };
    features?: { has(name: string): boolean };
    limits?: AdapterReport['limits'];
  } | null>;
}

/** no adapter to run on: the model runs on WASM, and `why` says so */
const onWasm = (why: string): ProviderProbe => ({
  ...{ webgpu: false, shaderF16: false, subgroups: false, limits: {}, subgroupMinSize: null, adapter: null },
  reason: `WASM: ${why}, so the model runs on WebAssembly.`,
});

export async function probeWebGPU(nav: { gpu?: unknown } = navigator as { gpu?: unknown }): Promise<ProviderProbe> {
  const gpu = nav.gpu as GpuLike | undefined;
  if (!gpu) return onWasm('this browser does not offer WebGPU (navigator.gpu is missing)');
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return onWasm('WebGPU is there but no GPU adapter is available');
    const i = adapter.info ?? {};
    const info: AdapterInfo = {
      vendor: i.vendor ?? '',
      architecture: i.architecture ?? '',
      device: i.device ?? '',
      description: i.description ?? '',
    };
    const name =
      [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' / ') || 'unnamed adapter';
    const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits ?? {};
    return {
      webgpu: true,
      shaderF16: Boolean(adapter.features?.has('shader-f16')),
      subgroups: Boolean(adapter.features?.has('subgroups')),
      subgroupMinSize: i.subgroupMinSize ?? null,
      limits: {
        ...(maxBufferSize !== undefined ? { maxBufferSize } : {}),
        ...(maxStorageBufferBindingSize !== undefined ? { maxStorageBufferBindingSize } : {}),
      },
      adapter: info,
      reason: `WebGPU: adapter ${name}.`,
    };
  } catch (e) {
    return onWasm(`the WebGPU adapter request failed (${(e as Error).message})`);
  }
}

export type ProviderChoice = 'auto' | Device;

/** the weight precisions, in the order the page offers them */
export const PRECISIONS = ['float32', 'float16', 'int8', 'int4'] as const satisfies readonly WeightPrecision[];
/** a precision the model adds fails to compile here until the page offers it */
const _everyPrecision: Exclude<WeightPrecision, (typeof PRECISIONS)[number]> extends never ? true : never = true;

export function chooseDevice(choice: ProviderChoice, probe: ProviderProbe): Device {
  if (choice === 'auto') return probe.webgpu ? 'webgpu' : 'wasm';
  return choice;
}

/** what the fit of a WebGPU plan is checked against; null without an adapter */
export const adapterCaps = ({ webgpu, limits, shaderF16, subgroups, subgroupMinSize }: ProviderProbe) =>
  webgpu ? { limits, shaderF16, subgroups, subgroupMinSize } : null;

/**
 * float16 where WebGPU runs it (the adapter has shader-f16), else float32; when that one does not
 * fit (`fits`, the plan's rows for the device), the closest to float32 that does: int8, then int4
 */
export function defaultPrecision(
  device: Device,
  probe: ProviderProbe,
  fits: readonly Pick<PrecisionFit, 'weights' | 'fits'>[] = [],
): WeightPrecision {
  const first: WeightPrecision = device === 'webgpu' && probe.shaderF16 ? 'float16' : 'float32';
  const order: WeightPrecision[] = [first, 'float32', 'float16', 'int8', 'int4'];
  const refused = new Set(fits.filter((f) => !f.fits).map((f) => f.weights));
  return order.find((w) => !refused.has(w)) ?? first;
}
