// Browser-safe entry of the ConsisID model library (no node: imports, no onnxruntime-node).
// Node callers (CLI, tests, benchmarks) use ./node for local folders and onnxruntime-node.
export { ConsisIDTransformer3DModel, type FromPretrainedOptions, type RuntimeOptions, type Transformer2DModelOutput } from './consisid-model';
export { browserEnvironment, browserEnvironmentWith, type ModelEnvironment } from './environment';
export { parseConfig, sampleFramesFor, ConfigError, consisIDConfigSchema, type ConsisIDConfig, type ConsisIDConfigInput } from './config';
export { prepareRotaryEmbeddings, type RotaryRequest } from './rope';
export { ForwardInputError, type ForwardArgs, type ForwardInputs } from './forward-inputs';
export { argsFromNamedTensors } from './named-inputs';
export { demoCheckpoints, consisidTinyFiles, consisidPreviewSFiles, CONSISID_TINY_CONFIG, CONSISID_PREVIEW_S_CONFIG, type DemoCheckpoint } from './demo-checkpoints';
export { hubSource, fileUrl, HubDownloadError, DEFAULT_HUB_URL, type HubSourceOptions } from './loader/hub-source';
export { memorySource } from './loader/memory-source';
export { loadCheckpoint, CheckpointError, type Checkpoint } from './loader/load-checkpoint';
export type { DownloadProgress, FileSource } from './loader/file-source';
export { buildConsisIDGraph, type GraphShape, type BuiltGraph } from './graph/transformer';
export { encodeModel } from './onnx/onnx-proto';
export { parseSafetensors, SafetensorsError } from './safetensors/read';
export { writeSafetensors } from './safetensors/write';
export { tensorF32, type HostTensor, type DType } from './tensor';
export type { Device, InferenceBackend, BackendSession, FloatTensor } from './runtime/types';
