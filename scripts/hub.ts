// `npm run hub -- [--port <port>] [--host <host>] [--data <dir>] [--spec-only] [--no-cors] [--repo <owner/name>=<folder>]`: the mock hub alone,
// with the demo checkpoint repos. MOCK_HUB_RATE_LIMIT=<requests>/<seconds> turns on 429 answers
// with Retry-After; MOCK_HUB_SPEC_ONLY=1 is the same as --spec-only.
import { serve } from '@hono/node-server';
import { parseOrExit } from '../src/cli/command-line.ts';
import { HUB_USAGE, parseHubArgs } from '../src/mock-hub/cli-args.ts';
import { rateLimitFromEnv } from '../src/mock-hub/http/rate-limit.ts';
import { printBanner } from '../src/mock-hub/banner.ts';
import { stopOnSignals } from '../src/mock-hub/shutdown.ts';
import { createDemoHub, demoHubLines } from './demo-hub.ts';

const {
  port,
  host,
  dataDir,
  specOnly,
  repoFolders = [],
  cors = true,
} = parseOrExit(() => parseHubArgs(process.argv.slice(2), process.env), HUB_USAGE);
const limit = rateLimitFromEnv(process.env.MOCK_HUB_RATE_LIMIT);
const { hub, demoRepoIds } = await createDemoHub(
  { dataDir, baseUrl: `http://${host}:${port}`, specOnly, cors, ...(limit ? { rateLimit: limit } : {}) },
  repoFolders,
);

const server = serve({ fetch: hub.app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  printBanner(
    [
      `Mock hub: ${url}  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory'}`,
      ...demoHubLines(demoRepoIds, specOnly, repoFolders, url),
      ...(cors ? [] : ['CORS: off (--no-cors); pages on other origins cannot read this hub']),
      ...(limit ? [`Rate limit: ${limit.requests} requests per ${limit.windowMs / 1000} s per token`] : []),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
