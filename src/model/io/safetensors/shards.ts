// A diffusers model folder's weight files: tensors split into shards of about equal size with
// diffusers' names and index, and the whole folder (config.json, weights, index) as files in memory.
import { DTYPE_BYTES } from './dtype.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME } from './index-file.ts';
import { layoutDtype, writeSafetensors, type TensorLayout } from './write.ts';
import { numel, type HostTensor } from '../tensor.ts';

/** one file of a model folder, by its path in the folder (or repository) */
export interface FolderFile {
  path: string;
  bytes: Uint8Array;
}

export interface ShardPlan {
  /** the weight files with the tensors each holds, in order */
  files: { name: string; tensors: TensorLayout[] }[];
  /** diffusion_pytorch_model.safetensors.index.json, when sharded */
  index: Uint8Array | null;
}

const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v, null, 2)}\n`);

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

/** config.json as diffusers writes it for the model class `className` */
export const diffusersConfigBytes = (className: string, config: Record<string, unknown>): Uint8Array =>
  json({ _class_name: className, _diffusers_version: '0.39.0', ...config });

/** a model folder in memory: config.json, the weights in `shards` files, the index when sharded; under `prefix` */
export function modelFolderFiles(
  configBytes: Uint8Array,
  tensors: ReadonlyMap<string, HostTensor>,
  opts: { shards?: number; prefix?: string } = {},
): FolderFile[] {
  const prefix = opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/` : '';
  const plan = planShards(
    [...tensors].map(([name, t]) => ({ name, dtype: t.dtype, shape: t.shape })),
    opts.shards,
  );
  const files: FolderFile[] = [{ path: `${prefix}config.json`, bytes: configBytes }];
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
