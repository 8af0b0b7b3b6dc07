// `npm run hub -- --port <port> [--host <host>] [--data <dir>] [--repo <owner/name>=<folder> ...]`:
// the mock hub alone; each --repo serves a local checkpoint folder as a hub repository.
// MOCK_HUB_RATE_LIMIT=<requests>/<seconds> turns on 429 answers with Retry-After.
import { serve } from '@hono/node-server';
import { createMockHub } from './app.ts';
import { repoFolderFlags } from './files/repo-folder-flag.ts';
import { rateLimitFromEnv } from './http/rate-limit.ts';
import { printBanner } from './banner.ts';
import { stopOnSignals } from './shutdown.ts';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(flag('port') ?? process.env.PORT ?? 4701);
const host = flag('host') ?? '127.0.0.1';
const dataDir = flag('data');
const repoFolders = repoFolderFlags(process.argv.slice(2));
const limit = rateLimitFromEnv(process.env.MOCK_HUB_RATE_LIMIT);
const hub = await createMockHub({ dataDir, baseUrl: `http://${host}:${port}`, ...(limit ? { rateLimit: limit } : {}) });

for (const r of repoFolders) hub.registerRepoFolder(r.repoId, r.dir);

const server = serve({ fetch: hub.app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  printBanner(
    [
      `Mock hub: ${url}  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory'}`,
      ...repoFolders.map((r) => `Local repo: ${r.repoId} = ${r.dir}`),
      ...(limit ? [`Rate limit: ${limit.requests} requests per ${limit.windowMs / 1000} s per token`] : []),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
