// Browser-safe entry of the ConsisID model library (no node: imports, no onnxruntime-node).
// Node callers (CLI, tests, benchmarks) use ./node for local folders and onnxruntime-node.
export {
  ConsisIDTransformer3DModel,
  type FromPretrainedOptions,
  type RuntimeOptions,
  type Transformer2DModelOutput,
  type ModelStage,
  type StageEvent,
  type FallbackEvent,
  type SegmentEvent,
  type ModelEvents,
  type SessionInfo,
  type SegmentOptions,
} from './consisid-model.ts';
export type { DeviceForward } from './device-forward.ts';
export { buildSamplerStepGraph, SAMPLER_STEP, type SamplerStepShape } from './graph/sampler-step.ts';
export {
  planSegments,
  SegmentPlanError,
  SEGMENT_HEAP_BUDGET,
  type SegmentChoice,
  type SegmentPlan,
  type SegmentPlanOptions,
  type PlannedSegment,
} from './segment-plan.ts';
export { buildConsisIDSegments, type BuiltSegment } from './graph/segments.ts';
export { createSegmentedSession, segmentedSession, type SegmentModel } from './segmented-session.ts';
export {
  WEIGHT_PRECISIONS,
  PRECISION_ERROR_VS_FLOAT32,
  quantizationFor,
  computeDtypeFor,
  type WeightPrecision,
} from './precision.ts';
export {
  planPrecisions,
  plannedWeights,
  browserFit,
  WEBGPU_DEFAULT_LIMITS,
  WASM_HEAP_BYTES,
  type PrecisionPlan,
  type WebGpuLimits,
} from './plan.ts';
export { CONSISID_CONFIG } from './named-configs.ts';
export {
  segmentOutcome,
  precisionFit,
  planFit,
  planAttention,
  memoryBudgetOn,
  type AdapterCaps,
  type PrecisionFit,
} from './fit.ts';
export { heldBudget, passingBytes, storageReason, withStorage, type BrowserStorage } from './storage-fit.ts';
export { sessionModel } from './session-model.ts';
export { browserEnvironment, browserEnvironmentWith, bundledWebBackend, type ModelEnvironment } from './environment.ts';
export {
  parseConfig,
  sampleFramesFor,
  ConfigError,
  consisIDConfigSchema,
  type ConsisIDConfig,
  type ConsisIDConfigInput,
} from './config.ts';
export { prepareRotaryEmbeddings, type RotaryRequest } from './rope.ts';
export { ForwardInputError, type ForwardArgs, type ForwardInputs } from './forward-inputs.ts';
export { argsFromNamedTensors } from './named-inputs.ts';
export {
  demoCheckpoints,
  consisidTinyFiles,
  consisidPreviewSFiles,
  CONSISID_TINY_CONFIG,
  CONSISID_PREVIEW_S_CONFIG,
  type DemoCheckpoint,
} from './demo-checkpoints.ts';
export {
  hubSource,
  hubFileUrl,
  hubFetch,
  hubFetchRequired,
  openHubFile,
  HubFileError,
  DEFAULT_HUB_URL,
  type HubRepo,
} from './loader/hub-files.ts';
export { BrowserCacheError, storageOp, type WeightCache } from './loader/weight-cache.ts';
export {
  openCache,
  cachedVersions,
  cachedHeads,
  cachedFiles,
  fileStorageRefusal,
  removeCachedFiles,
  deleteCachedFiles,
  type CachedFile,
  type CachedFileState,
} from './loader/opfs-cache.ts';
export { ChunkedHubFile, type ChunkOptions } from './loader/hub-file-chunks.ts';
export { chunkedHubSource, blobFile, type HubFileEntry } from './loader/chunked-hub-source.ts';
export { memorySource } from './loader/memory-source.ts';
export { memoryCache } from './loader/memory-cache.ts';
export {
  weightConverter,
  type WeightConverter,
  type WeightConverterOptions,
  type ConvertSource,
} from './convert/weight-converter.ts';
export { ConvertedCheckpoint, type ConvertedFile } from './convert/converted-checkpoint.ts';
export { convertedSizes } from './convert/converted-size.ts';
export { ConvertedMemoryError } from './convert/memory-fallback.ts';
export { conversionPlan, type ConversionPlan } from './convert/conversion-plan.ts';
export {
  convertSafetensorsStream,
  streamChunks,
  type ConvertedTensor,
  type ConverterMemory,
  type StreamConvertOptions,
} from './convert/stream-convert.ts';
export { convertTensor, type TensorConversion } from './convert/tensor-conversion.ts';
export {
  loadCheckpoint,
  readSafetensorsHeaderFrom,
  readSafetensorsHead,
  fileFromBytes,
  CheckpointError,
  type Checkpoint,
  type CheckpointFile,
  type CheckpointFiles,
} from './loader/load-checkpoint.ts';
export type { DownloadProgress, FileSource, RandomAccessFile, ReadOptions } from './loader/file-source.ts';
export { buildConsisIDGraph, type GraphShape, type BuiltGraph, type BlockRange } from './graph/transformer.ts';
export { expectedParameters } from './graph/parameters.ts';
export { encodeModel } from './onnx/onnx-proto.ts';
export {
  parseSafetensors,
  parseSafetensorsHeader,
  readHeaderLength,
  SafetensorsError,
  type SafetensorsHeader,
} from './safetensors/read.ts';
export { writeSafetensors } from './safetensors/write.ts';
export { entryToFloat32 } from './safetensors/read.ts';
export { WEIGHTS_NAME, WEIGHTS_INDEX_NAME, parseShardIndex, shardFiles } from './safetensors/index-file.ts';
export { collectWeights, type WeightSet } from './safetensors/weight-set.ts';
export { prng } from './prng.ts';
export { tensorF32, type HostTensor, type DType } from './tensor.ts';
export type {
  Device,
  InferenceBackend,
  BackendSession,
  FloatTensor,
  DeviceTensor,
  Feed,
  SessionModel,
  ExternalDataSource,
} from './runtime/types.ts';
export { webgpuHasShaderF16 } from './runtime/webgpu-features.ts';
// The preview pipeline: inputs, the DDIM loop and uploads, shared by the page's worker, the benches and the e2e specs.
export { runPreview, previewArgs } from './pipeline/run-preview.ts';
export {
  defaultSpec,
  inputLimits,
  specShape,
  type F32Tensor,
  type InputLimits,
  type InputSpec,
} from './pipeline/inputs.ts';
export { parseTextUpload, parseIdentityUpload, outputSafetensors } from './pipeline/uploads.ts';
export type { PreviewRequest, Readback, StepFrame, Timings, Uploads } from './pipeline/run-types.ts';
export { relativeError } from './tensor.ts';
export { latentView, summarize, type LatentView, type OutputSummary } from './pipeline/latent-view.ts';
export { inspectCheckpoint, summarizeHeader } from './pipeline/inspect-checkpoint.ts';
export { downloadCheckpoint } from './pipeline/download-checkpoint.ts';
export type { CheckpointInfo, CheckpointProgress, CheckpointRef, InspectedFile } from './pipeline/checkpoint-info.ts';
