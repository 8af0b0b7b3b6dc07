import { describe, expect, it } from 'vitest';
import { webgpuHasShaderF16 } from './webgpu-features.ts';

const gpu = (features: string[] | null, fail = false) => ({
  requestAdapter: async () => {
    if (fail) throw new Error('lost');
    return features && { features: new Set(features) };
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
