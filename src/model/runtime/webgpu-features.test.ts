import { describe, expect, it } from 'vitest';
import { webgpuAttentionKernel, webgpuHasShaderF16 } from './webgpu-features.ts';

const gpu = (features: string[] | null, fail = false, subgroupMinSize?: number) => ({
  requestAdapter: async () => {
    if (fail) throw new Error('lost');
    return features && { features: new Set(features), info: { subgroupMinSize } };
  },
});

describe('webgpuHasShaderF16', () => {
  it('is true only for an adapter with shader-f16', async () => {
    expect(await webgpuHasShaderF16(gpu(['shader-f16', 'timestamp-query']))).toBe(true);
    expect(await webgpuHasShaderF16(gpu(['timestamp-query']))).toBe(false);
    expect(await webgpuHasShaderF16(gpu(null))).toBe(false);
    expect(await webgpuHasShaderF16(gpu([], true))).toBe(false);
    expect(await webgpuHasShaderF16(undefined)).toBe(false);
  });
});

describe('webgpuAttentionKernel', () => {
  it('decomposes attention only where the adapter has subgroups narrower than 8 lanes', async () => {
    expect(await webgpuAttentionKernel(gpu(['subgroups'], false, 4))).toBe('decomposed');
    expect(await webgpuAttentionKernel(gpu(['subgroups'], false, 8))).toBe('fused');
    expect(await webgpuAttentionKernel(gpu(['subgroups'], false, 32))).toBe('fused');
    // no subgroups, or no sizes reported: left fused (not seen on an adapter here)
    expect(await webgpuAttentionKernel(gpu([], false, 4))).toBe('fused');
    expect(await webgpuAttentionKernel(gpu(['subgroups']))).toBe('fused');
    expect(await webgpuAttentionKernel(gpu(null))).toBe('fused');
    expect(await webgpuAttentionKernel(undefined)).toBe('fused');
  });
});
