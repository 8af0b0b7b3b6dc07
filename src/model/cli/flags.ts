// Flags of the consisid commands, on the shared node:util parseArgs parser: `--name value`,
// `--name=value`, switches; unknown or misspelt options are a UsageError. Each command declares its
// flags once (a CommandSpec): the parser's names, the required checks and the usage come from it.
import { parseCommandLine, UsageError } from '../../cli/command-line.ts';

export { HelpRequested, UsageError } from '../../cli/command-line.ts';

/** One flag: what it takes and what it does. */
export interface FlagSpec {
  /** the value's placeholder in the usage (`<dir>`, `n`, `float32|float16`); without one the flag is a switch */
  readonly value?: string;
  readonly required?: true;
  readonly help: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** A command: its name, a one-line summary, its flags, and notes printed under them in its usage. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly flags: FlagSpecs;
  readonly notes?: readonly string[];
}

/** A command the CLI runs: its declaration, and what it does with the flags parsed by it. */
export interface Command extends CommandSpec {
  run(flags: Flags, log: (line: string) => void): Promise<void>;
}

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

/** Parses a command's flags as it declares them; a missing required one is a UsageError naming it. */
export function parseCommandFlags(argv: readonly string[], command: CommandSpec): Flags {
  const entries = Object.entries(command.flags);
  const flags = parseFlags(argv, {
    values: entries.filter(([, f]) => f.value !== undefined).map(([name]) => name),
    switches: entries.filter(([, f]) => f.value === undefined).map(([name]) => name),
  });
  for (const [name, f] of entries) if (f.required) flags.need(name);
  return flags;
}
