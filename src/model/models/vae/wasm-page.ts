// What a page holds in JS + WASM while onnxruntime-web decodes on WASM, from what the plan counts.
// The heap holds the weights as read and as the session folds them, and the activations' arena grows
// past their peak (a WASM heap never shrinks); each thread past the first adds its own share on top.
// The factors are measured in Chromium with a margin (docs/vae.md, "In Chromium").

/**
 * the page's bytes per planned byte, and per WASM thread past the first (its stack and its share of
 * the heap, as measured at 1 to 4 threads, with a margin)
 */
export const WASM_PAGE_PER_BYTE = { weights: 2, activations: 3, perThreadBytes: 160e6 };

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
    WASM_PAGE_PER_BYTE.perThreadBytes * (threads - 1)
  );
}
