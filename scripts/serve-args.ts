// `npm start` flags (scripts/serve.ts): the mock hub's, plus --fresh, or --hub-url alone with
// --port/--host. argv in, options out, or a UsageError that names the flag. Defaults live here, so a
// flag the user gives always wins.
import { parseCommandLine, parseOrExit, UsageError } from '../src/cli/command-line.ts';
import { HUB_SERVER_OPTIONS, hubServerArgs, type HubServerArgs } from '../src/mock-hub/cli-args.ts';

export const SERVE_USAGE = `usage: npm start -- [--port 4700] [--host 127.0.0.1] [--data <dir> | --fresh] [--spec-only] [--no-cors] [--repo <owner/name>=<folder> ...]
       npm start -- --hub-url <url> [--port 4700] [--host 127.0.0.1]
  --port       port to listen on (default: $PORT, else 4700; 0 picks a free one)
  --host       interface to bind (default 127.0.0.1)
  --data       persist state in this folder (default: $HUB_DATA_DIR, else .data)
  --fresh      start from the seed, in memory (nothing persisted)
  --spec-only  only what the real hub has: mock-only routes answer 404 (also MOCK_HUB_SPEC_ONLY=1)
  --no-cors    send no CORS headers from the mock hub
  --repo       serve a local checkpoint folder as this hub repository (repeatable)
  --hub-url    no mock hub: pass /api/* and the file routes through to this hub (also $HUB_URL;
               see docs/hub-proxy.md)`;

export interface ServeArgs extends HubServerArgs {
  /** `--hub-url`: the hub every API and file request is passed to; no mock hub runs (set only when given). */
  hubUrl?: string;
}

const SERVE_OPTIONS = { ...HUB_SERVER_OPTIONS, fresh: { type: 'boolean' }, 'hub-url': { type: 'string' } } as const;
/** The flags that act on the embedded mock hub, which --hub-url leaves out. */
const MOCK_HUB_FLAGS = ['data', 'fresh', 'spec-only', 'no-cors', 'repo'] as const;

export function parseServeArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ServeArgs {
  const { values } = parseCommandLine(argv, SERVE_OPTIONS);
  const hubUrlValue = values['hub-url'] ?? (env.HUB_URL || undefined);
  if (hubUrlValue !== undefined) {
    const flag = values['hub-url'] !== undefined ? '--hub-url' : 'HUB_URL';
    const mockFlag = MOCK_HUB_FLAGS.find((f) => values[f] !== undefined);
    if (mockFlag) throw new UsageError(`${flag} serves no mock hub: --${mockFlag} has nothing to act on; drop one`);
    const { port, host } = hubServerArgs({ port: values.port, host: values.host }, env, 4700);
    return { port, host, dataDir: undefined, specOnly: false, hubUrl: hubUrlOf(hubUrlValue, flag) };
  }
  if (values.fresh && values.data !== undefined)
    throw new UsageError('--fresh and --data contradict each other: give one');
  const args = hubServerArgs(values, env, 4700);
  return { ...args, dataDir: values.fresh ? undefined : (args.dataDir ?? env.HUB_DATA_DIR ?? '.data') };
}

/** An http(s) address without query, fragment or credentials, with no trailing slash. */
function hubUrlOf(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a full URL such as https://huggingface.co, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must start with http:// or https://, got "${value}"`);
  if (url.username || url.password)
    throw new UsageError(`${flag} must not hold credentials: each user signs in with a token in the console`);
  if (url.search || url.hash) throw new UsageError(`${flag} must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** For scripts/serve.ts and scripts/start.mjs: the options, or the usage and exit 2. */
export function serveArgsOrExit(argv: readonly string[], env: NodeJS.ProcessEnv): ServeArgs {
  return parseOrExit(() => parseServeArgs(argv, env), SERVE_USAGE);
}
