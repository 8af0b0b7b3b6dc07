// What a page holds in JS + WASM while onnxruntime-web decodes on WASM, from what the plan counts.
// The heap holds the weights as read and as the session folds them, and the activations' arena grows
// past their peak (a WASM heap never shrinks); a page that runs onnxruntime-web's thread pool holds
// more again, once: measured, the same at 2, 3 and 4 threads.
// The factors are measured in Chromium with a margin (docs/vae.md, "In Chromium").

/**
 * the page's bytes per planned byte, and what a page with more than one WASM thread holds on top
 * (the most measured at 2 to 4 threads over 1 thread's page, with a margin)
 */
export const WASM_PAGE_PER_BYTE = { weights: 2, activations: 3, threadedBytes: 160e6 };

/**
 * what a WASM page holds for weights and one batch's activations (with the convolution scratch) when
 * onnxruntime-web runs `threads` threads
 */
export function wasmPageBytes(weightBytes: number, activationBytes: number, threads = 1): number {
  if (!Number.isInteger(threads) || threads < 1)
    throw new Error(`wasmPageBytes: threads must be an integer >= 1, got ${threads}`);
  return (
    WASM_PAGE_PER_BYTE.weights * weightBytes +
    WASM_PAGE_PER_BYTE.activations * activationBytes +
    (threads > 1 ? WASM_PAGE_PER_BYTE.threadedBytes : 0)
  );
}
