// Writes a transformer checkpoint in the diffusers layout: config.json plus one safetensors file,
// or shards plus diffusion_pytorch_model.safetensors.index.json.
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME } from './safetensors/index-file.ts';
import { writeSafetensors } from './safetensors/write.ts';
import type { HostTensor } from './tensor.ts';

export interface CheckpointFile {
  path: string;
  bytes: Uint8Array;
}

const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v, null, 2)}\n`);

export function writeCheckpointFiles(config: Record<string, unknown>, tensors: ReadonlyMap<string, HostTensor>, opts: { shards?: number; prefix?: string } = {}): CheckpointFile[] {
  const prefix = opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/` : '';
  const shards = Math.max(1, opts.shards ?? 1);
  const files: CheckpointFile[] = [{ path: `${prefix}config.json`, bytes: json({ _class_name: 'ConsisIDTransformer3DModel', _diffusers_version: '0.39.0', ...config }) }];
  const entries = [...tensors];
  if (shards === 1) {
    files.push({ path: `${prefix}${WEIGHTS_NAME}`, bytes: writeSafetensors(Object.fromEntries(entries), { format: 'pt' }) });
    return files;
  }
  const total = entries.reduce((s, [, t]) => s + t.data.byteLength, 0);
  const groups: [string, HostTensor][][] = Array.from({ length: shards }, () => []);
  let acc = 0;
  for (const e of entries) {
    const g = Math.min(shards - 1, Math.floor((acc / total) * shards));
    groups[g]!.push(e);
    acc += e[1].data.byteLength;
  }
  const pad = (n: number) => String(n).padStart(5, '0');
  const weightMap: Record<string, string> = {};
  groups.forEach((group, i) => {
    const name = `diffusion_pytorch_model-${pad(i + 1)}-of-${pad(shards)}.safetensors`;
    for (const [k] of group) weightMap[k] = name;
    files.push({ path: `${prefix}${name}`, bytes: writeSafetensors(Object.fromEntries(group), { format: 'pt' }) });
  });
  files.push({ path: `${prefix}${WEIGHTS_INDEX_NAME}`, bytes: json({ metadata: { total_size: total }, weight_map: weightMap }) });
  return files;
}
