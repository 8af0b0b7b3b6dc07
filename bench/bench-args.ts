// `npm run bench [-- <target>...]` arguments: argv in, the targets to run out (all when none named).
import { parseCommandLine, UsageError } from '../src/cli/command-line.ts';

export const TARGETS = ['hub', 'webhooks', 'model', 'dashboard', 'preview', 'gpu'] as const;
export type Target = (typeof TARGETS)[number];

export const BENCH_USAGE = `usage: npm run bench [-- ${TARGETS.join('|')} ...]   (every target when none is named)
  BENCH_TARGET_TIMEOUT_S=<s> bounds each target (default 900)`;

export function parseBenchArgs(argv: readonly string[]): Target[] {
  const { positionals } = parseCommandLine(argv, {}, true);
  const unknown = positionals.filter((p) => !(TARGETS as readonly string[]).includes(p));
  if (unknown.length)
    throw new UsageError(`unknown bench target(s): ${unknown.join(', ')}; choose from ${TARGETS.join(', ')}`);
  return positionals.length ? TARGETS.filter((t) => positionals.includes(t)) : [...TARGETS];
}
