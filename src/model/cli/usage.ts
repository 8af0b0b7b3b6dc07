// The consisid usage, written from the commands' declared flags (never by hand beside them).
import type { CommandSpec, FlagSpec } from './flags.ts';

const WIDTH = 120;
const HELP_COLUMN = 32;

/** `--name value`, bracketed when optional */
function flagWord(name: string, f: FlagSpec): string {
  const word = f.value === undefined ? `--${name}` : `--${name} ${f.value}`;
  return f.required ? word : `[${word}]`;
}

/** words joined into lines of at most WIDTH characters, each line after the first indented by `indent` */
function wrap(first: string, words: readonly string[], indent: number): string[] {
  const lines = [first];
  for (const word of words) {
    const last = lines[lines.length - 1]!;
    if (last.trim() !== '' && last.length + 1 + word.length > WIDTH) lines.push(`${' '.repeat(indent)}${word}`);
    else lines[lines.length - 1] = last.endsWith(' ') || last === '' ? last + word : `${last} ${word}`;
  }
  return lines;
}

/** `consisid forward --model <dir | repo id> ... [--repeat n] ...` after `lead`: required flags first, as declared */
export function synopsis(lead: string, program: string, command: CommandSpec): string {
  const flags = Object.entries(command.flags);
  const ordered = [...flags.filter(([, f]) => f.required), ...flags.filter(([, f]) => !f.required)];
  const head = `${lead}${program} ${command.name} `;
  return wrap(
    head,
    ordered.map(([name, f]) => flagWord(name, f)),
    head.length,
  ).join('\n');
}

/** One command's usage: its synopsis, its summary, each flag with its help, then its notes. */
export function commandUsage(program: string, command: CommandSpec): string {
  const rows = Object.entries(command.flags).flatMap(([name, f]) => {
    const word = f.value === undefined ? `--${name}` : `--${name} ${f.value}`;
    const help = `${f.help}${f.required ? ' (required)' : ''}`.split(' ');
    if (word.length + 4 > HELP_COLUMN) return [`  ${word}`, ...wrap(' '.repeat(HELP_COLUMN), help, HELP_COLUMN)];
    return wrap(`  ${word}`.padEnd(HELP_COLUMN), help, HELP_COLUMN);
  });
  return [
    synopsis('usage: ', program, command),
    '',
    ...wrap('', command.summary.split(' '), 0),
    '',
    ...rows,
    ...(command.notes ?? []),
  ].join('\n');
}

/** Every command's synopsis, and where each flag is described. */
export function programUsage(program: string, commands: readonly CommandSpec[]): string {
  return [
    'usage:',
    ...commands.map((c) => synopsis('  ', program, c)),
    '',
    `${program} <command> --help describes each flag.`,
  ].join('\n');
}
