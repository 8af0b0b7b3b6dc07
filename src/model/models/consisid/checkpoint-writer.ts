// Writes a transformer checkpoint in the diffusers layout: config.json plus one safetensors file,
// or shards plus diffusion_pytorch_model.safetensors.index.json.
import { diffusersConfigBytes, modelFolderFiles, type FolderFile } from '../../io/safetensors/shards.ts';
import { type HostTensor } from '../../io/tensor.ts';
import type { ConsisIDConfig } from '../../graph/config.ts';
import { loadCheckpoint, type Checkpoint } from './load-checkpoint.ts';
import { memorySource } from '../../io/memory-source.ts';

export const configFileBytes = (config: Record<string, unknown>): Uint8Array =>
  diffusersConfigBytes('ConsisIDTransformer3DModel', config);

export function writeCheckpointFiles(
  config: Record<string, unknown>,
  tensors: ReadonlyMap<string, HostTensor>,
  opts: { shards?: number; prefix?: string } = {},
): FolderFile[] {
  return modelFolderFiles(configFileBytes(config), tensors, opts);
}

/** a checkpoint over in-memory tensors (benchmarks, tests): written as one safetensors file in memory */
export function checkpointFromTensors(
  config: ConsisIDConfig,
  tensors: ReadonlyMap<string, HostTensor>,
): Promise<Checkpoint> {
  return loadCheckpoint(memorySource(writeCheckpointFiles({ ...config }, tensors)));
}
