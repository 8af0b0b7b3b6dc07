// What the WebGPU adapter can do, asked before a graph is built or a session is made on it.
import type { AttentionKernel } from '../graph/context.ts';

interface AdapterLike {
  features: { has(name: string): boolean };
  info?: { subgroupMinSize?: number };
}

interface GpuLike {
  requestAdapter(): Promise<AdapterLike | null>;
}

const navigatorGpu = () => (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;

/**
 * Whether float16 graphs can run on this browser's WebGPU: they need the adapter's `shader-f16`
 * feature (without it onnxruntime-web makes a session whose outputs are garbage).
 */
export async function webgpuHasShaderF16(gpu: GpuLike | undefined = navigatorGpu()): Promise<boolean> {
  const adapter = await gpu?.requestAdapter().catch(() => null);
  return Boolean(adapter?.features.has('shader-f16'));
}

/**
 * The narrowest subgroup onnxruntime-web's flash attention computes right with: its shader takes 8
 * or 16 keys per step from a subgroup, and narrower subgroups give wrong values (docs/model-webgpu.md).
 */
export const FLASH_ATTENTION_MIN_SUBGROUP = 8;

/** fused (flash) attention where the adapter's subgroups are wide enough for it, decomposed where not */
export const attentionKernelFor = (adapter: { subgroups: boolean; subgroupMinSize: number | null }): AttentionKernel =>
  adapter.subgroups && (adapter.subgroupMinSize ?? Infinity) < FLASH_ATTENTION_MIN_SUBGROUP ? 'decomposed' : 'fused';

/** the attention kernel this browser's adapter runs exactly (attentionKernelFor) */
export async function webgpuAttentionKernel(gpu: GpuLike | undefined = navigatorGpu()): Promise<AttentionKernel> {
  const adapter = await gpu?.requestAdapter().catch(() => null);
  return attentionKernelFor({
    subgroups: Boolean(adapter?.features.has('subgroups')),
    subgroupMinSize: adapter?.info?.subgroupMinSize ?? null,
  });
}
