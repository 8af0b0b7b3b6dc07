// Node-only: a random-weight VAE folder written tensor by tensor (never whole in memory), for
// `consisid generate --vae` and the VAE bench: config.json plus one safetensors file or shards + index.
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { planShards } from '../consisid/checkpoint-writer.ts';
import { WEIGHTS_INDEX_NAME } from '../../io/safetensors/index-file.ts';
import { safetensorsHeader } from '../../io/safetensors/write.ts';
import { parseVaeConfig, VaeConfigError } from './config.ts';
import { decoderParameters } from './decoder-layout.ts';
import { NAMED_VAE_CONFIGS, randomVaeTensors, vaeConfigFile, type VaeFolderOptions } from './random-vae.ts';

/** writes the folder; returns the weight bytes */
export async function writeVaeFolder(
  dir: string,
  rawConfig: Record<string, unknown>,
  opts: VaeFolderOptions = {},
): Promise<number> {
  const config = parseVaeConfig(rawConfig);
  const dtype = opts.dtype ?? 'float32';
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'config.json'), vaeConfigFile(rawConfig));
  const plan = planShards(
    [...decoderParameters(config)].map(([name, shape]) => ({ name, dtype, shape })),
    opts.shards,
  );
  const tensors = randomVaeTensors(config, opts.seed ?? 0, dtype);
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

/** `--vae <released | small | config.json | folder>`: a named VAE config or one read from a file, checked */
export async function readVaeConfigArg(arg: string): Promise<{ raw: Record<string, unknown>; label: string }> {
  const named = NAMED_VAE_CONFIGS[arg];
  if (named) return { raw: { ...named }, label: `${arg} VAE` };
  const file = arg.endsWith('.json') ? arg : path.join(arg, 'config.json');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null)
    throw new VaeConfigError(
      `--vae ${arg}: neither a VAE config name (${Object.keys(NAMED_VAE_CONFIGS).join(', ')}) nor a config.json file or folder`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new VaeConfigError(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  parseVaeConfig(raw, file);
  return { raw: raw as Record<string, unknown>, label: file };
}
