// `npm start` flags (scripts/serve.ts): the mock hub's, plus --fresh. argv in, options out, or a
// UsageError that names the flag. Defaults live here, so a flag the user gives always wins.
import { parseCommandLine, parseOrExit, UsageError } from '../src/cli/command-line.ts';
import { HUB_SERVER_OPTIONS, hubServerArgs, type HubServerArgs } from '../src/mock-hub/cli-args.ts';

export const SERVE_USAGE = `usage: npm start -- [--port 4700] [--host 127.0.0.1] [--data <dir> | --fresh] [--spec-only] [--repo <owner/name>=<folder> ...]
  --port       port to listen on (default: $PORT, else 4700; 0 picks a free one)
  --host       interface to bind (default 127.0.0.1)
  --data       persist state in this folder (default: $HUB_DATA_DIR, else .data)
  --fresh      start from the seed, in memory (nothing persisted)
  --spec-only  only what the real hub has: mock-only routes answer 404 (also MOCK_HUB_SPEC_ONLY=1)
  --repo       serve a local checkpoint folder as this hub repository (repeatable)`;

export function parseServeArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): HubServerArgs {
  const { values } = parseCommandLine(argv, { ...HUB_SERVER_OPTIONS, fresh: { type: 'boolean' } });
  if (values.fresh && values.data !== undefined)
    throw new UsageError('--fresh and --data contradict each other: give one');
  const args = hubServerArgs(values, env, 4700);
  return { ...args, dataDir: values.fresh ? undefined : (args.dataDir ?? env.HUB_DATA_DIR ?? '.data') };
}

/** For scripts/serve.ts and scripts/start.mjs: the options, or the usage and exit 2. */
export function serveArgsOrExit(argv: readonly string[], env: NodeJS.ProcessEnv): HubServerArgs {
  return parseOrExit(() => parseServeArgs(argv, env), SERVE_USAGE);
}
