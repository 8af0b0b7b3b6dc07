// `--name value` / `--flag` parsing for the consisid CLI.

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Flags {
  get(name: string): string | undefined;
  need(name: string): string;
  has(name: string): boolean;
}

export function parseFlags(argv: readonly string[], known: { values: readonly string[]; switches: readonly string[] }): Flags {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument "${a}"`);
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (known.switches.includes(name)) {
      switches.add(name);
      continue;
    }
    if (!known.values.includes(name)) throw new UsageError(`unknown option --${name}`);
    const v = inline ?? argv[++i];
    if (v === undefined) throw new UsageError(`--${name} needs a value`);
    values.set(name, v);
  }
  return {
    get: (n) => values.get(n),
    need(n) {
      const v = values.get(n);
      if (v === undefined) throw new UsageError(`--${n} is required`);
      return v;
    },
    has: (n) => switches.has(n),
  };
}
