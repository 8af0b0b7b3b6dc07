// `npm run hub -- [--port <port>] [--host <host>] [--data <dir>]`: the mock hub alone.
// MOCK_HUB_RATE_LIMIT=<requests>/<seconds> turns on 429 answers with Retry-After.
import { serve } from '@hono/node-server';
import { parseOrExit } from '../cli/command-line.ts';
import { createMockHub } from './app.ts';
import { HUB_USAGE, parseHubArgs } from './cli-args.ts';
import { rateLimitFromEnv } from './http/rate-limit.ts';
import { printBanner } from './banner.ts';
import { stopOnSignals } from './shutdown.ts';

const { port, host, dataDir } = parseOrExit(() => parseHubArgs(process.argv.slice(2), process.env), HUB_USAGE);
const limit = rateLimitFromEnv(process.env.MOCK_HUB_RATE_LIMIT);
const hub = await createMockHub({ dataDir, baseUrl: `http://${host}:${port}`, ...(limit ? { rateLimit: limit } : {}) });

const server = serve({ fetch: hub.app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  printBanner(
    [
      `Mock hub: ${url}  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory'}`,
      ...(limit ? [`Rate limit: ${limit.requests} requests per ${limit.windowMs / 1000} s per token`] : []),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
