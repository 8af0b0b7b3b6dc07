// What the WebGPU adapter can do, asked before a session is made on it.

interface GpuLike {
  requestAdapter(): Promise<{ features: { has(name: string): boolean } } | null>;
}

/**
 * Whether float16 graphs can run on this browser's WebGPU: they need the adapter's `shader-f16`
 * feature (without it onnxruntime-web made a session whose outputs were garbage: SwiftShader here).
 */
export async function webgpuHasShaderF16(
  gpu: GpuLike | undefined = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu,
): Promise<boolean> {
  const adapter = await gpu?.requestAdapter().catch(() => null);
  return Boolean(adapter?.features.has('shader-f16'));
}
