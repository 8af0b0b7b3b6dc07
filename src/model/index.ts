// The ConsisID model library's public entry, browser-safe (no node: imports, no onnxruntime-node):
// load a model, plan what fits, run it, convert and cache its weights. Node callers (CLI, tests,
// benchmarks) use ./node for local folders and onnxruntime-node. The layers behind it are drawn in
// docs/architecture.md.

// --- load and run ---
/** the transformer: fromPretrained (hub or source), forward, deviceForward, session, release */
export { ConsisIDTransformer3DModel } from './models/consisid/consisid-model.ts';
/** where the files come from, the device and precision, segments, listeners */
export type { FromPretrainedOptions } from './models/consisid/model-options.ts';
/** listeners of a model's stages, fallbacks and segments */
export type { ModelEvents } from './runtime/events.ts';
/** where a model finds its backend and local folders */
export type { ModelEnvironment } from './runtime/environment.ts';
/** the browser environment with onnxruntime-web's wasm files at `wasmPaths` */
export { browserEnvironmentWith } from './runtime/environment.ts';
/** onnxruntime-web as the app bundles it (JSPI build for wasm, the WebGPU EP for webgpu) */
export { bundledWebBackend } from './runtime/environment.ts';
/** the arguments of forward: diffusers' names and shapes */
export type { ForwardArgs } from './models/consisid/forward-inputs.ts';
/** max|a - b| / max|b| (the absolute error where the reference is all zeros) */
export { relativeError } from './io/tensor.ts';
/** a tensor in host memory: dtype, shape, data */
export type { HostTensor } from './io/tensor.ts';
/** a forward whose inputs stay on the device between steps */
export type { DeviceForward } from './runtime/device-forward.ts';
/** a float32 tensor on the host or a GPU buffer, read back on demand */
export type { DeviceTensor } from './runtime/types.ts';
/** the rotary embeddings forward takes for a latent size */
export { prepareRotaryEmbeddings } from './models/consisid/rope.ts';

// --- config ---
/** the transformer's config.json, every default filled in */
export type { ConsisIDConfig } from './graph/config.ts';
/** checks a config.json (zod): errors name the parameters */
export { parseConfig } from './graph/config.ts';
/** the shapes of one forward: batch, frames, height, width, text length */
export type { GraphShape } from './graph/transformer.ts';

// --- plan: what fits before anything downloads ---
/** float32 | float16 | int8 | int4 */
export type { WeightPrecision } from './plan/precision.ts';
/** every weight precision, largest first */
export { WEIGHT_PRECISIONS } from './plan/precision.ts';
/** each precision's measured error against float32, for the page to show */
export { PRECISION_ERROR_VS_FLOAT32 } from './plan/precision.ts';
/** per precision on a device: bytes, peaks, segments, and whether (why not) it fits */
export { planFit } from './plan/fit.ts';
/** one precision's fit, with its reasons */
export type { PrecisionFit } from './plan/fit.ts';
/** what the WebGPU adapter offers: limits and shader-f16 */
export type { AdapterCaps } from './plan/fit.ts';
/** the memory a page may hold on a device (one MemoryBudget for every rule) */
export { memoryBudgetOn } from './plan/fit.ts';
/** the storage rule added to the fits: converted weights need room in the cache or in memory */
export { withStorage } from './plan/storage-fit.ts';
/** per precision, what the page may hold in memory when the cache refuses */
export { heldBudgets } from './plan/storage-fit.ts';
/** the heap a segment may pass its weights through, the budget where the device sets none */
export { SEGMENT_HEAP_BUDGET } from './plan/segment-plan.ts';
/** what the browser can store for this checkpoint */
export type { BrowserStorage } from './plan/storage-fit.ts';
/** the WebGPU spec's default limits, what every adapter gives */
export { WEBGPU_DEFAULT_LIMITS } from './plan/plan.ts';
/** an adapter's buffer limits */
export type { WebGpuLimits } from './plan/plan.ts';

// --- weights: the hub, the browser cache, conversion ---
/** a checkpoint's files for fromPretrained: config, index and weights */
export type { FileSource } from './io/file-source.ts';
/** a hub file that could not be read: the file, the URL and the status */
export { HubFileError } from './io/hub-files.ts';
/** the browser cache refused or failed: quota, private mode, a chunk unreadable */
export { BrowserCacheError } from './cache/weight-cache.ts';
/** the browser cache: open it, what it holds, remove a checkpoint's files or all, why it cannot store */
export { browserCache } from './convert/cached-checkpoint.ts';
/** what the cache holds of one file: its chunks and each precision converted */
export type { CachedFileState } from './convert/cached-checkpoint.ts';
/** a hub checkpoint's weight files, read in chunks through the browser cache (null: uncached) */
export { chunkedHubSource } from './cache/chunked-hub-source.ts';
/** a source's weights converted for a precision as they download, kept in the cache per precision */
export { convertedSource } from './convert/converted-source.ts';
/** per precision, the bytes the conversion writes for a checkpoint */
export { convertedSizes } from './convert/conversion-plan.ts';

// --- the preview pipeline: inputs, the DDIM loop, uploads, what the page shows ---
/** runs the denoising loop of one preview request on a loaded model */
export { runPreview, previewArgs } from './pipeline/run-preview.ts';
/** the page's input choices: defaults, limits, the forward shape they make */
export {
  defaultSpec,
  inputLimits,
  specShape,
  type F32Tensor,
  type InputLimits,
  type InputSpec,
} from './pipeline/inputs.ts';
/** reads uploaded text and identity embeddings, writes the output file */
export { parseTextUpload, parseIdentityUpload, outputSafetensors } from './pipeline/uploads.ts';
/** a preview request and what its run reports */
export type { PreviewRequest, Readback, StepFrame, Timings, Uploads } from './pipeline/run-types.ts';
/** the latents drawn as frames, and their statistics */
export { latentView, summarize, type LatentView, type OutputSummary } from './pipeline/latent-view.ts';
/** a checkpoint's files and headers, read before anything downloads */
export { inspectCheckpoint, summarizeHeader } from './pipeline/inspect-checkpoint.ts';
/** downloads a checkpoint's raw files into the cache */
export { downloadCheckpoint } from './pipeline/download-checkpoint.ts';
/** what an inspection found and a download reports */
export type { CheckpointInfo, CheckpointProgress, CheckpointRef, InspectedFile } from './pipeline/checkpoint-info.ts';

// --- the VAE ---
/** decodes a run's latents with the checkpoint's own vae/ into RGBA frames, batch by batch, cancellable */
export { decodePreview, type DecodedClip } from './pipeline/decode-preview.ts';
/** what a decode needs (weights, activation peak per batch, tiles) and whether a browser holds it */
export { planPreviewDecode, type VaeDecodePlan } from './pipeline/decode-preview.ts';
