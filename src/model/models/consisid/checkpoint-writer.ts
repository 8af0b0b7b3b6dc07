// Writes a transformer checkpoint in the diffusers layout: config.json plus one safetensors file,
// or shards plus diffusion_pytorch_model.safetensors.index.json.
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME } from '../../io/safetensors/index-file.ts';
import { DTYPE_BYTES } from '../../io/safetensors/dtype.ts';
import { layoutDtype, writeSafetensors, type TensorLayout } from '../../io/safetensors/write.ts';
import { numel, type HostTensor } from '../../io/tensor.ts';
import type { ConsisIDConfig } from '../../graph/config.ts';
import { loadCheckpoint, type Checkpoint } from './load-checkpoint.ts';
import { memorySource } from '../../io/memory-source.ts';

export interface CheckpointFile {
  path: string;
  bytes: Uint8Array;
}

const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v, null, 2)}\n`);

export const configFileBytes = (config: Record<string, unknown>): Uint8Array =>
  json({ _class_name: 'ConsisIDTransformer3DModel', _diffusers_version: '0.39.0', ...config });

export interface ShardPlan {
  /** the weight files with the tensors each holds, in order */
  files: { name: string; tensors: TensorLayout[] }[];
  /** diffusion_pytorch_model.safetensors.index.json, when sharded */
  index: Uint8Array | null;
}

/** splits tensors (in order) into `shards` files of about equal size, diffusers' names and index */
export function planShards(tensors: readonly TensorLayout[], shards = 1): ShardPlan {
  const size = (t: TensorLayout) => numel(t.shape) * DTYPE_BYTES[layoutDtype(t.dtype)];
  const n = Math.max(1, shards);
  if (n === 1) return { files: [{ name: WEIGHTS_NAME, tensors: [...tensors] }], index: null };
  const total = tensors.reduce((s, t) => s + size(t), 0);
  const groups: TensorLayout[][] = Array.from({ length: n }, () => []);
  let acc = 0;
  for (const t of tensors) {
    groups[Math.min(n - 1, Math.floor((acc / total) * n))]!.push(t);
    acc += size(t);
  }
  const pad = (i: number) => String(i).padStart(5, '0');
  const weightMap: Record<string, string> = {};
  const files = groups.map((g, i) => {
    const name = `diffusion_pytorch_model-${pad(i + 1)}-of-${pad(n)}.safetensors`;
    for (const t of g) weightMap[t.name] = name;
    return { name, tensors: g };
  });
  return { files, index: json({ metadata: { total_size: total }, weight_map: weightMap }) };
}

export function writeCheckpointFiles(
  config: Record<string, unknown>,
  tensors: ReadonlyMap<string, HostTensor>,
  opts: { shards?: number; prefix?: string } = {},
): CheckpointFile[] {
  const prefix = opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/` : '';
  const plan = planShards(
    [...tensors].map(([name, t]) => ({ name, dtype: t.dtype, shape: t.shape })),
    opts.shards,
  );
  const files: CheckpointFile[] = [{ path: `${prefix}config.json`, bytes: configFileBytes(config) }];
  for (const f of plan.files)
    files.push({
      path: `${prefix}${f.name}`,
      bytes: writeSafetensors(Object.fromEntries(f.tensors.map((t) => [t.name, tensors.get(t.name)!])), {
        format: 'pt',
      }),
    });
  if (plan.index) files.push({ path: `${prefix}${WEIGHTS_INDEX_NAME}`, bytes: plan.index });
  return files;
}

/** a checkpoint over in-memory tensors (benchmarks, tests): written as one safetensors file in memory */
export function checkpointFromTensors(
  config: ConsisIDConfig,
  tensors: ReadonlyMap<string, HostTensor>,
): Promise<Checkpoint> {
  return loadCheckpoint(memorySource(writeCheckpointFiles({ ...config }, tensors)));
}
