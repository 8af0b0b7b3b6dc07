// The ConsisID model library's public entry, browser-safe (no node: imports, no onnxruntime-node):
// load a model, plan what fits, run it, convert and cache its weights. Node callers (CLI, tests,
// benchmarks) use ./node for local folders and onnxruntime-node. The layers behind it are drawn in
// docs/architecture.md.

// --- load and run ---
/** the transformer: fromPretrained (hub or source), forward, deviceForward, session, release */
export { ConsisIDTransformer3DModel } from './models/consisid/consisid-model.ts';
/** the arguments of forward: diffusers' names and shapes */
export type { ForwardArgs } from './models/consisid/forward-inputs.ts';
/** listeners of a model's stages, fallbacks and segments */
export type { ModelEvents } from './runtime/events.ts';
/** the browser environment with onnxruntime-web as the app bundles it (JSPI build for wasm, the WebGPU EP for webgpu) */
export { bundledWebEnvironment } from './runtime/environment.ts';
/** max|a - b| / max|b| (the absolute error where the reference is all zeros) */
export { relativeError } from './io/tensor.ts';

// --- config ---
/** the transformer's config.json, every default filled in */
export type { ConsisIDConfig } from './graph/config.ts';
/** what a run is asked for: seed, latent size, text length, timestep, identity */
export type { InputSpec } from './graph/input-spec.ts';
/** the graph shape a spec makes for a config: what its plan, its session and its converted sizes are made for */
export { specShape } from './graph/input-spec.ts';

// --- plan: what fits before anything downloads ---
/** float32 | float16 | int8 | int4 */
export type { WeightPrecision } from './plan/precision.ts';
/** every weight precision, largest first */
export { WEIGHT_PRECISIONS } from './plan/precision.ts';
/** plans a checkpoint's precisions against a device, its adapter and the browser's storage, keeping its last plans */
export { CheckpointPlanner } from './plan/checkpoint-planner.ts';
/** what a plan is asked: config, spec, device, adapter report, heap budget, storage */
export type { FitRequest } from './plan/checkpoint-planner.ts';
/** a plan's answer: each precision's fit with its reasons, the memory budget, the measured errors */
export type { FitAnswer } from './plan/checkpoint-planner.ts';

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
/** what a preview run is asked for: spec, mode (forward or denoise), steps, guidance, uploads */
export type { PreviewRequest } from './pipeline/run-types.ts';
/** a run's times: loading the weights, graph builds, sessions, each forward, the rotary tables */
export type { Timings } from './pipeline/run-types.ts';
/** the forward arguments of a request (generated from the seed, or uploaded) and the time its rotary tables took */
export { previewArgs } from './pipeline/run-preview.ts';
/** runs a request's forward pass or DDIM loop on a model, each step and the output drawn for the page */
export { runShownPreview } from './pipeline/shown-run.ts';
/** a run's output as the page shows it: the sample drawn and summed up, what it read back */
export type { ShownRun } from './pipeline/shown-run.ts';
/** a denoising step as the page shows it: its latents drawn */
export type { ShownStep } from './pipeline/shown-run.ts';
/** an uploaded .safetensors as the run's text or identity inputs, checked against the config */
export { parseUpload } from './pipeline/uploads.ts';
/** the run's output as a .safetensors file */
export { outputSafetensors } from './pipeline/uploads.ts';
/** a checkpoint's config, files and headers, read before anything downloads */
export { inspectCheckpoint } from './pipeline/inspect-checkpoint.ts';
/** downloads a checkpoint's raw files into the cache, with progress */
export { downloadCheckpoint } from './pipeline/download-checkpoint.ts';
/** what an inspection found: config, input limits and defaults, files, what the cache holds, or why it is refused */
export type { CheckpointInfo } from './pipeline/checkpoint-info.ts';
/** a download's progress: the file and the bytes so far, of it and of all */
export type { CheckpointProgress } from './pipeline/checkpoint-info.ts';

// --- the VAE ---
/** the checkpoint's VAE decoder (its vae/ folder) from a hub repository or a source: decode(latents) as the pipeline does */
export { vaeFromPretrained } from './models/vae/from-pretrained.ts';
/** decodes a run's latents with the checkpoint's own vae/ into RGBA frames, batch by batch, cancellable */
export { decodePreview } from './pipeline/decode-preview.ts';
/** the precision the preview decodes in: float16 on WebGPU with shader-f16 when the transformer is not float32, else float32 */
export { previewVaePrecision } from './pipeline/decode-preview.ts';
/** a decoded clip: its size and RGBA frames */
export type { DecodedClip } from './pipeline/decode-preview.ts';
/** what a decode needs (weights, activation peak per batch, tiles) and whether a browser holds it */
export { planPreviewDecode } from './pipeline/decode-preview.ts';
/** a decode's plan: weight bytes, activation peaks, tiles, the fit */
export type { VaeDecodePlan } from './pipeline/decode-preview.ts';
