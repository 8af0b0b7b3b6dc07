import { describe, expect, it } from 'vitest';
import { jsWasmBytes, wasmHeapBytes } from './process-memory.ts';

describe('JS + WASM memory', () => {
  it('counts a shared wasm memory, which Node leaves out of external, once', () => {
    const before = process.memoryUsage();
    const [js, wasm] = [jsWasmBytes(before), wasmHeapBytes()];
    const shared = new WebAssembly.Memory({ initial: 160, maximum: 320, shared: true }); // 10 MiB
    const plain = new WebAssembly.Memory({ initial: 80 }); // 5 MiB, in external
    const after = process.memoryUsage();
    expect(after.external - before.external).toBeLessThan(6 * 2 ** 20);
    expect(wasmHeapBytes() - wasm).toBe(15 * 2 ** 20);
    const grew = jsWasmBytes(after) - js;
    expect(grew).toBeGreaterThanOrEqual(15 * 2 ** 20);
    expect(grew).toBeLessThan(17 * 2 ** 20);
    expect([shared.buffer.byteLength, plain.buffer.byteLength]).toEqual([10 * 2 ** 20, 5 * 2 ** 20]);
  });
});
