// The flags of `npm run hub`, which `npm start` shares (scripts/serve-args.ts adds --fresh):
// argv in, options out, or a UsageError that names the flag.
import { parseCommandLine, portValue } from '../cli/command-line.ts';

export const HUB_SERVER_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
} as const;

export interface HubServerArgs {
  port: number;
  host: string;
  /** Persist state here; in memory when undefined. */
  dataDir: string | undefined;
}

/** A flag the user gives wins over the environment (`PORT`), which wins over the default. */
export function hubServerArgs(values: { port?: string | undefined; host?: string | undefined; data?: string | undefined }, env: NodeJS.ProcessEnv, defaultPort: number): HubServerArgs {
  const port = values.port ?? env.PORT;
  return {
    port: port === undefined ? defaultPort : portValue(port, values.port === undefined ? 'PORT' : '--port'),
    host: values.host ?? '127.0.0.1',
    dataDir: values.data,
  };
}

export const HUB_USAGE = `usage: npm run hub -- [--port 4701] [--host 127.0.0.1] [--data <dir>]
  --port   port to listen on (default: $PORT, else 4701; 0 picks a free one)
  --host   interface to bind (default 127.0.0.1)
  --data   persist state in this folder (default: in memory)
  MOCK_HUB_RATE_LIMIT=<requests>/<seconds> turns on 429 answers with Retry-After.`;

export function parseHubArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): HubServerArgs {
  return hubServerArgs(parseCommandLine(argv, HUB_SERVER_OPTIONS).values, env, 4701);
}
