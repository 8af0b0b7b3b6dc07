// `--config <name | config.json>` and `--model <name>` for commands that need only a config.
import { readFile } from 'node:fs/promises';
import { parseConfig, type ConsisIDConfig } from '../graph/config.ts';
import { NAMED_CONFIGS } from '../models/consisid/named-configs.ts';
import { UsageError } from './flags.ts';

/** a named config, or a config.json file (or a folder holding one) */
export async function readConfigArg(
  arg: string,
): Promise<{ raw: Record<string, unknown>; config: ConsisIDConfig; label: string }> {
  const named = NAMED_CONFIGS[arg];
  if (named) return { raw: { ...named }, config: parseConfig(named, arg), label: arg };
  const file = arg.endsWith('.json') ? arg : `${arg.replace(/\/+$/, '')}/config.json`;
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null)
    throw new UsageError(
      `"${arg}" is neither a config name (${Object.keys(NAMED_CONFIGS).join(', ')}) nor a config.json file or folder`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  return { raw: raw as Record<string, unknown>, config: parseConfig(raw, file), label: file };
}
