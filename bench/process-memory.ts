// This process's memory as the benches read it: JS heap, external, ArrayBuffers, RSS, and
// onnxruntime-web's wasm heap, caught as it is made. Node counts a plain WebAssembly.Memory in
// `external` but a shared one (onnxruntime-web's threaded builds make one) nowhere, measured on
// Node 20: JS + WASM is heapUsed + external + the shared memories. Import this module before
// onnxruntime-web makes its memory.

const memories: WebAssembly.Memory[] = [];
const shared = new WeakSet<WebAssembly.Memory>();
const NativeMemory = WebAssembly.Memory;
(WebAssembly as { Memory: typeof WebAssembly.Memory }).Memory = class extends NativeMemory {
  constructor(d: WebAssembly.MemoryDescriptor) {
    super(d);
    memories.push(this);
    if (d.shared) shared.add(this);
  }
};

const sum = (ms: WebAssembly.Memory[]) => ms.reduce((n, x) => n + x.buffer.byteLength, 0);
/** bytes of the wasm memories made so far: a wasm heap only grows, so this is its peak so far */
export const wasmHeapBytes = () => sum(memories);

/** JS heap used + external + the shared wasm memories (which `external` leaves out) */
export function jsWasmBytes(m: NodeJS.MemoryUsage = process.memoryUsage()): number {
  return m.heapUsed + m.external + sum(memories.filter((x) => shared.has(x)));
}

export interface Reading {
  label: string;
  wasmHeapMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
  arrayBuffersMiB: number;
  jsWasmMiB: number;
  rssMiB: number;
}

export const mib = (b: number) => Math.round(b / 2 ** 20);

/** the memory now, after a garbage collection when the process runs with --expose-gc */
export function readMemory(label: string): Reading {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return {
    label,
    wasmHeapMiB: mib(wasmHeapBytes()),
    heapUsedMiB: mib(m.heapUsed),
    externalMiB: mib(m.external),
    arrayBuffersMiB: mib(m.arrayBuffers),
    jsWasmMiB: mib(jsWasmBytes(m)),
    rssMiB: mib(m.rss),
  };
}

/**
 * Samples memory every 20 ms: the most JS + WASM (jsWasmBytes) and RSS seen. Its timer also keeps
 * the event loop referenced while the run awaits Dawn: with nothing referenced, Node ends the loop
 * turn in DrainTasks, which waits for V8's background compilation of onnxruntime's 27 MB wasm
 * (100 s on 2 busy cores, measured) before any GPU callback runs again.
 */
export function memorySampler() {
  let peak = 0;
  let peakRss = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, jsWasmBytes(m));
    peakRss = Math.max(peakRss, m.rss);
  };
  const timer = setInterval(sample, 20);
  return {
    /** the peaks so far */
    peaks: () => (sample(), { jsWasm: peak, rss: peakRss }),
    /** stops sampling; the JS + WASM peak */
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
