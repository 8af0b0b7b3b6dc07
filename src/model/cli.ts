// `npm run consisid -- forward|export|generate|plan|decode ...`: each command declares its flags and help
// (cli/*-command.ts); the parser and the usage are made from those declarations.
import { exportCommand } from './cli/export-command.ts';
import { forwardCommand } from './cli/forward-command.ts';
import { generateCommand } from './cli/generate-command.ts';
import { planCommand } from './cli/plan-command.ts';
import { decodeCommand } from './cli/decode-command.ts';
import { HelpRequested, parseCommandFlags, UsageError, type Command } from './cli/flags.ts';
import { commandUsage, programUsage } from './cli/usage.ts';

const PROGRAM = 'consisid';
const COMMANDS: readonly Command[] = [forwardCommand, exportCommand, generateCommand, planCommand, decodeCommand];

export async function main(
  argv: readonly string[],
  log: (line: string) => void = (l) => console.error(l),
): Promise<number> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === name);
  const usage = command ? commandUsage(PROGRAM, command) : programUsage(PROGRAM, COMMANDS);
  try {
    if (command) await command.run(parseCommandFlags(rest, command), log);
    else if (name === 'help' || name === '--help' || name === '-h' || name === undefined) {
      log(usage);
      return name === undefined ? 2 : 0;
    } else throw new UsageError(`unknown command "${name}"`);
    return 0;
  } catch (e) {
    if (e instanceof HelpRequested) {
      log(usage);
      return 0;
    }
    log(e instanceof UsageError ? `${e.message}\n${usage}` : `error: ${(e as Error).message}`);
    return e instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main(process.argv.slice(2));
}
