// What a VAE decode process on onnxruntime-node CPU holds, from what the plan counts. The plan's
// weight bytes and activation peak (with the im2col scratch) are the graphs' own; the process holds
// more per planned byte: per weight byte the mapped checkpoint, the folded time taps of each 3-D
// kernel and the CPU provider's reordered copies; per activation byte the arena's and the allocator's
// slack over the graph's live set, and the outputs copied into JS; and Node's and onnxruntime's own.
// The factors are fitted on peak RSS measured per batch size with a margin (docs/vae.md, "CPU memory").

/** the process's bytes per planned byte, and its own bytes before any session */
export const CPU_PROCESS_PER_BYTE = { weights: 3.6, activations: 3, baseBytes: 0.25e9 };

/**
 * the peak RSS of a decode process holding one session (a decoder with maxSessions 1, or an untiled
 * decode, which releases the first batch's session before the next is made) while its largest batch
 * runs, from `planVaeDecode`'s weightBytes and activationPeakBytes.cpu
 */
export const cpuProcessBytes = (weightBytes: number, activationBytes: number): number =>
  CPU_PROCESS_PER_BYTE.baseBytes +
  CPU_PROCESS_PER_BYTE.weights * weightBytes +
  CPU_PROCESS_PER_BYTE.activations * activationBytes;
