// Node only: writes a checkpoint folder in the diffusers layout tensor by tensor, so a checkpoint
// of gigabytes never sits in memory (benchmarks and e2e tests generate big ones at run time).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { parseConfig, type ConsisIDConfigInput } from './config.ts';
import { expectedParameters } from './graph/parameters.ts';
import { randomWeightStream } from './random-weights.ts';
import { WEIGHTS_INDEX_NAME, WEIGHTS_NAME } from './safetensors/index-file.ts';
import { safetensorsHeader, type TensorLayout } from './safetensors/write.ts';
import { numel, type HostTensor } from './tensor.ts';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** contiguous groups of about equal bytes, in order (as writeCheckpointFiles splits shards) */
function shardGroups(layout: TensorLayout[], shards: number, bytesOf: (t: TensorLayout) => number): TensorLayout[][] {
  const total = layout.reduce((s, t) => s + bytesOf(t), 0);
  const groups: TensorLayout[][] = Array.from({ length: shards }, () => []);
  let acc = 0;
  for (const t of layout) {
    groups[Math.min(shards - 1, Math.floor((acc / total) * shards))]!.push(t);
    acc += bytesOf(t);
  }
  return groups.filter((g) => g.length > 0);
}

/**
 * Writes config.json and the weights, whose values come from `tensors` in `layout` order; one
 * safetensors file, or `shards` files and the index. Returns the weight file names.
 */
export async function writeCheckpointFolder(dir: string, config: Record<string, unknown>, layout: TensorLayout[], tensors: Iterator<[string, HostTensor]>, opts: { shards?: number } = {}): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.json'), json({ _class_name: 'ConsisIDTransformer3DModel', _diffusers_version: '0.39.0', ...config }));
  const bytesOf = (t: TensorLayout) => numel(t.shape) * (t.dtype === 'float32' ? 4 : 2);
  const groups = shardGroups(layout, Math.max(1, opts.shards ?? 1), bytesOf);
  const pad = (n: number) => String(n).padStart(5, '0');
  const names = groups.length === 1 ? [WEIGHTS_NAME] : groups.map((_, i) => `diffusion_pytorch_model-${pad(i + 1)}-of-${pad(groups.length)}.safetensors`);
  const weightMap: Record<string, string> = {};
  for (const [i, group] of groups.entries()) {
    const file = await open(path.join(dir, names[i]!), 'w');
    try {
      await file.write(safetensorsHeader(group, { format: 'pt' }).header);
      for (const t of group) {
        const next = tensors.next();
        if (next.done || next.value[0] !== t.name) throw new Error(`expected tensor "${t.name}", got ${next.done ? 'the end' : `"${next.value[0]}"`}`);
        const d = next.value[1].data;
        await file.write(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        weightMap[t.name] = names[i]!;
      }
    } finally {
      await file.close();
    }
  }
  if (groups.length > 1) writeFileSync(path.join(dir, WEIGHTS_INDEX_NAME), json({ metadata: { total_size: layout.reduce((s, t) => s + bytesOf(t), 0) }, weight_map: weightMap }));
  return names;
}

/**
 * A checkpoint of deterministic random weights for a config, written once into `dir` (in a
 * `transformer` subfolder) and reused while the config, seed, dtype and shards are the same.
 */
export async function randomCheckpointFolder(dir: string, input: ConsisIDConfigInput, opts: { seed?: number; dtype?: 'float32' | 'float16'; shards?: number } = {}): Promise<{ dir: string; weightBytes: number }> {
  const seed = opts.seed ?? 1;
  const dtype = opts.dtype ?? 'float32';
  const config = parseConfig(input);
  const layout = [...expectedParameters(config)].map(([name, shape]) => ({ name, dtype, shape }));
  const weightBytes = layout.reduce((s, t) => s + numel(t.shape) * (dtype === 'float32' ? 4 : 2), 0);
  const stamp = createHash('sha1').update(JSON.stringify({ input, seed, dtype, shards: opts.shards })).digest('hex');
  const marker = path.join(dir, '.complete');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === stamp) return { dir, weightBytes };
  rmSync(dir, { recursive: true, force: true });
  await writeCheckpointFolder(path.join(dir, 'transformer'), { ...config }, layout, randomWeightStream(config, seed, dtype), { shards: opts.shards });
  writeFileSync(marker, stamp);
  return { dir, weightBytes };
}
