// `npm run hub -- --port <port> [--host <host>] [--data <dir>] [--spec-only]`: the mock hub alone,
// with the demo checkpoint repos. MOCK_HUB_RATE_LIMIT=<requests>/<seconds> turns on 429 answers
// with Retry-After; MOCK_HUB_SPEC_ONLY=1 is the same as --spec-only.
import { serve } from '@hono/node-server';
import { rateLimitFromEnv } from '../src/mock-hub/http/rate-limit.ts';
import { printBanner } from '../src/mock-hub/banner.ts';
import { stopOnSignals } from '../src/mock-hub/shutdown.ts';
import { createDemoHub, demoHubLines, specOnlyRequested } from './demo-hub.ts';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(flag('port') ?? process.env.PORT ?? 4701);
const host = flag('host') ?? '127.0.0.1';
const dataDir = flag('data');
const specOnly = specOnlyRequested();
const limit = rateLimitFromEnv(process.env.MOCK_HUB_RATE_LIMIT);
const { hub, demoRepoIds } = await createDemoHub({ dataDir, baseUrl: `http://${host}:${port}`, specOnly, ...(limit ? { rateLimit: limit } : {}) });

const server = serve({ fetch: hub.app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  printBanner(
    [
      `Mock hub: ${url}  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory'}`,
      ...demoHubLines(demoRepoIds, specOnly),
      ...(limit ? [`Rate limit: ${limit.requests} requests per ${limit.windowMs / 1000} s per token`] : []),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
