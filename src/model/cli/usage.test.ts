import { describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { exportCommand } from './export-command.ts';
import { parseCommandFlags, UsageError, type CommandSpec } from './flags.ts';
import { forwardCommand } from './forward-command.ts';
import { generateCommand } from './generate-command.ts';
import { decodeCommand } from './decode-command.ts';
import { planCommand } from './plan-command.ts';
import { commandUsage, programUsage, synopsis } from './usage.ts';

const COMMANDS = [forwardCommand, exportCommand, generateCommand, planCommand, decodeCommand];

async function cli(...argv: string[]): Promise<{ code: number; log: string }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, log: lines.join('\n') };
}

/** the value a flag gets in these tests: anything for a value flag, nothing for a switch */
const argsFor = (command: CommandSpec, names: readonly string[]) =>
  names.flatMap((n) => (command.flags[n]!.value === undefined ? [`--${n}`] : [`--${n}`, 'x']));

describe.each(COMMANDS)('consisid $name: usage from its declared flags', (command) => {
  const names = Object.keys(command.flags);
  const required = names.filter((n) => command.flags[n]!.required);

  it('lists every flag the parser takes, the required ones bare and first, the others in brackets', () => {
    const line = synopsis('', 'consisid', command).replace(/\s+/g, ' ');
    for (const n of names) {
      const f = command.flags[n]!;
      const word = f.value === undefined ? `--${n}` : `--${n} ${f.value}`;
      expect(line).toContain(f.required ? ` ${word}` : `[${word}]`);
      expect(commandUsage('consisid', command)).toContain(`  ${word}`);
      // the parser takes what the usage shows
      expect(() => parseCommandFlags([...argsFor(command, required), ...argsFor(command, [n])], command)).not.toThrow();
    }
    const positions = names.map((n) =>
      line.indexOf(`--${n} `) >= 0 ? line.indexOf(`--${n} `) : line.indexOf(`--${n}]`),
    );
    const lastRequired = Math.max(...required.map((n) => positions[names.indexOf(n)]!));
    const firstOptional = Math.min(
      ...names.filter((n) => !required.includes(n)).map((n) => positions[names.indexOf(n)]!),
    );
    expect(lastRequired).toBeLessThan(firstOptional);
  });

  it('wraps at 120 columns (a longer flag stands alone on its line) and lines the flags up under the command', () => {
    const lines = commandUsage('consisid', command).split('\n');
    for (const l of lines) expect(l.length <= 120 || /^\s*\[?--\S+( \S+)?\]?$/.test(l), l).toBe(true);
    const [first, ...rest] = synopsis('usage: ', 'consisid', command).split('\n');
    const indent = `usage: consisid ${command.name} `.length;
    for (const l of rest) expect(l.slice(0, indent).trim()).toBe('');
    expect(first).toMatch(new RegExp(`^usage: consisid ${command.name} --`));
  });

  it('refuses a missing required flag by name, in the order declared', () => {
    for (const [i, n] of required.entries())
      expect(() => parseCommandFlags(argsFor(command, required.slice(0, i)), command)).toThrow(
        new UsageError(`--${n} is required`),
      );
  });
});

describe('consisid help', () => {
  it('`<command> --help` prints that command with each flag described, and exits 0', async () => {
    const r = await cli('plan', '--help');
    expect(r.code).toBe(0);
    expect(r.log).toMatch(/^usage: consisid plan --model <config name \| dir \| repo id>/);
    expect(r.log).toMatch(/ {2}--gpu-limits .*\n {10,}an adapter's WebGPU limits/);
    expect(r.log).not.toMatch(/consisid forward/);
  });

  it('a bad flag prints the error, then the usage of that command; no command prints every command', async () => {
    const r = await cli('export', '--modle', 'x');
    expect(r.code).toBe(2);
    expect(r.log.split('\n').slice(0, 2)).toEqual([
      'unknown option --modle (did you mean --model?)',
      expect.stringMatching(/^usage: consisid export --model/),
    ]);
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.log).toBe(programUsage('consisid', COMMANDS));
    for (const c of COMMANDS) expect(none.log).toContain(`\n  consisid ${c.name} --`);
  });
});
