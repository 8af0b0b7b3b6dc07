// Flags of the consisid commands, on the shared node:util parseArgs parser: `--name value`,
// `--name=value`, switches; unknown or misspelt options are a UsageError.
import { parseCommandLine, UsageError } from '../../cli/command-line.ts';

export { HelpRequested, UsageError } from '../../cli/command-line.ts';

export interface Flags {
  get(name: string): string | undefined;
  need(name: string): string;
  has(name: string): boolean;
}

export function parseFlags(
  argv: readonly string[],
  known: { values: readonly string[]; switches: readonly string[] },
): Flags {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of known.values) options[name] = { type: 'string' };
  for (const name of known.switches) options[name] = { type: 'boolean' };
  const { values } = parseCommandLine(argv, options);
  const get = (n: string) => (typeof values[n] === 'string' ? values[n] : undefined);
  return {
    get,
    need(n) {
      const v = get(n);
      if (v === undefined) throw new UsageError(`--${n} is required`);
      return v;
    },
    has: (n) => values[n] === true,
  };
}
