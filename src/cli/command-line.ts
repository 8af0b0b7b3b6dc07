// Flags of every command line (npm start, npm run hub, consisid, the bench, webhooks:example):
// node:util parseArgs in strict mode, with errors a user can act on. Imports nothing from src.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bad command line: the caller prints the message and the usage, and exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `--help` / `-h`: the caller prints the usage and exits with status 0. */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses `argv` against `options` (plus `--help`). Accepts `--name value` and `--name=value`; a
 * repeated single-value option keeps the last one. Unknown options, a missing value, a value on a
 * switch and (unless allowed) positionals throw a UsageError that names the flag.
 */
export function parseCommandLine<const O extends OptionSpecs, const P extends boolean = false>(
  argv: readonly string[],
  options: O,
  allowPositionals?: P,
) {
  const config = {
    args: [...argv],
    options,
    strict: true,
    allowPositionals: (allowPositionals ?? false) as P,
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ ...config, options: { ...options, ...HELP } });
  } catch (e) {
    throw usageErrorOf(e, Object.keys(options));
  }
  if ((parsed.values as Record<string, unknown>).help) throw new HelpRequested('help');
  return parsed as ReturnType<typeof parseArgs<typeof config>>;
}

function usageErrorOf(e: unknown, known: readonly string[]): unknown {
  const code = (e as { code?: string }).code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return e;
  const message = (e as Error).message;
  const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = closest(flag.replace(/^-+/, ''), known);
    return new UsageError(`unknown option ${flag}${near ? ` (did you mean --${near}?)` : ''}`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return new UsageError(`unexpected argument "${/'([^']*)'/.exec(message)?.[1] ?? ''}"`);
  if (message.includes('does not take an argument')) return new UsageError(`${flag} takes no value`);
  return new UsageError(`${flag} needs a value`);
}

/** The known name a misspelt one most likely meant: edit distance <= 2, or a prefix of it. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = k.startsWith(name) && name.length >= 2 ? 1 : editDistance(name, k);
    if (d <= 2 && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** A TCP port flag: an integer 0..65535 (0 picks a free one). */
export function portValue(value: string, flag = '--port'): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`${flag} must be an integer 0..65535, got "${value}"`);
  return n;
}

/**
 * The body of a script's entry point: parse with `parse`, and on a bad command line print the error
 * and `usage` to stderr and exit 2 (after --help: the usage to stdout, exit 0).
 */
export function parseOrExit<T>(parse: () => T, usage: string): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof HelpRequested) {
      console.log(usage);
      process.exit(0);
    }
    if (e instanceof UsageError) {
      console.error(`${e.message}\n${usage}`);
      process.exit(2);
    }
    throw e;
  }
}
