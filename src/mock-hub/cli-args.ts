// The flags of `npm run hub`, which `npm start` shares (scripts/serve-args.ts adds --fresh):
// argv in, options out, or a UsageError that names the flag.
import { parseCommandLine, portValue, UsageError } from '../cli/command-line.ts';
import { parseRepoFolders, type RepoFolder } from './files/repo-folder-flag.ts';

export const HUB_SERVER_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  repo: { type: 'string', multiple: true },
  'spec-only': { type: 'boolean' },
  'no-cors': { type: 'boolean' },
} as const;

export interface HubServerArgs {
  port: number;
  host: string;
  /** Persist state here; in memory when undefined. */
  dataDir: string | undefined;
  /** Serve only what the real hub has (mock-only routes answer 404). */
  specOnly: boolean;
  /** `--repo owner/name=folder` (repeatable): local checkpoint folders served as hub repos */
  repoFolders?: RepoFolder[];
  /** `--no-cors`: no CORS headers, as a hub that does not allow the console's origin (set only when given). */
  cors?: false;
}

/** `MOCK_HUB_SPEC_ONLY=1`: spec-only without a flag (also for `npm run dev`, which takes no flags). */
export function specOnlyFromEnv(env: NodeJS.ProcessEnv): boolean {
  return env.MOCK_HUB_SPEC_ONLY === '1';
}

/** A flag the user gives wins over the environment (`PORT`), which wins over the default. */
export function hubServerArgs(
  values: {
    port?: string | undefined;
    host?: string | undefined;
    data?: string | undefined;
    'spec-only'?: boolean | undefined;
    'no-cors'?: boolean | undefined;
    repo?: string[] | undefined;
  },
  env: NodeJS.ProcessEnv,
  defaultPort: number,
): HubServerArgs {
  const port = values.port ?? env.PORT;
  let repoFolders: RepoFolder[];
  try {
    repoFolders = parseRepoFolders(values.repo ?? []);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return {
    port: port === undefined ? defaultPort : portValue(port, values.port === undefined ? 'PORT' : '--port'),
    host: values.host ?? '127.0.0.1',
    dataDir: values.data,
    specOnly: values['spec-only'] === true || specOnlyFromEnv(env),
    ...(repoFolders.length ? { repoFolders } : {}),
    ...(values['no-cors'] ? { cors: false as const } : {}),
  };
}

export const HUB_USAGE = `usage: npm run hub -- [--port 4701] [--host 127.0.0.1] [--data <dir>] [--spec-only] [--no-cors] [--repo <owner/name>=<folder> ...]
  --port       port to listen on (default: $PORT, else 4701; 0 picks a free one)
  --host       interface to bind (default 127.0.0.1)
  --data       persist state in this folder (default: in memory)
  --spec-only  only what the real hub has: mock-only routes answer 404 (also MOCK_HUB_SPEC_ONLY=1)
  --no-cors    send no CORS headers, as a hub that does not allow the console's origin
  --repo       serve a local checkpoint folder as this hub repository (repeatable)
  MOCK_HUB_RATE_LIMIT=<requests>/<seconds> turns on 429 answers with Retry-After.`;

export function parseHubArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): HubServerArgs {
  return hubServerArgs(parseCommandLine(argv, HUB_SERVER_OPTIONS).values, env, 4701);
}
