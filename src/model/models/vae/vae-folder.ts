// Node-only: a random-weight VAE folder written tensor by tensor (never whole in memory), for
// `consisid generate --vae` and the VAE bench: config.json plus one safetensors file or shards + index.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeModelFolder } from '../../io/safetensors/write-folder.ts';
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
  return writeModelFolder(
    dir,
    vaeConfigFile(rawConfig),
    [...decoderParameters(config)].map(([name, shape]) => ({ name, dtype, shape })),
    randomVaeTensors(config, opts.seed ?? 0, dtype),
    opts.shards,
  );
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
