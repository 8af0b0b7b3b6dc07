// Node-only: a model folder written tensor by tensor (never whole in memory): config.json, the
// weights in shards as planned, the index when sharded.
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WEIGHTS_INDEX_NAME } from './index-file.ts';
import { planShards } from './shards.ts';
import { safetensorsHeader, type TensorLayout } from './write.ts';
import type { HostTensor } from '../tensor.ts';

/** `tensors` yields the tensors of `layouts` in the same order; returns the weight bytes written */
export async function writeModelFolder(
  dir: string,
  configBytes: Uint8Array,
  layouts: readonly TensorLayout[],
  tensors: Iterator<readonly [string, HostTensor]>,
  shards?: number,
): Promise<number> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'config.json'), configBytes);
  const plan = planShards(layouts, shards);
  let total = 0;
  for (const f of plan.files) {
    const fh = await open(path.join(dir, f.name), 'w');
    try {
      await fh.write(safetensorsHeader(f.tensors, { format: 'pt' }));
      for (const layout of f.tensors) {
        const next = tensors.next();
        if (next.done || next.value[0] !== layout.name)
          throw new Error(`generated tensors out of order at ${layout.name}`);
        const d = next.value[1].data;
        await fh.write(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        total += d.byteLength;
      }
    } finally {
      await fh.close();
    }
  }
  if (plan.index) await writeFile(path.join(dir, WEIGHTS_INDEX_NAME), plan.index);
  return total;
}
