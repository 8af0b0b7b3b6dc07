// Serves the built dashboard (dist/) and the mock hub from one process.
// Flags: --port <n> (default 4700), --host <h>, --data <dir> (persist state), --fresh (in-memory),
// --spec-only (or MOCK_HUB_SPEC_ONLY=1: only what the real hub has; mock-only routes answer 404).
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { printBanner } from '../src/mock-hub/banner.ts';
import { stopOnSignals } from '../src/mock-hub/shutdown.ts';
import { createDemoHub, demoHubLines, specOnlyRequested } from './demo-hub.ts';
import { securityHeaders } from './security-headers.ts';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(flag('port') ?? process.env.PORT ?? 4700);
const host = flag('host') ?? '127.0.0.1';
const fresh = process.argv.includes('--fresh');
const dataDir = fresh ? undefined : flag('data');

const specOnly = specOnlyRequested();
const { hub, demoRepoIds } = await createDemoHub({ dataDir, baseUrl: `http://${host}:${port}`, specOnly });
const app = new Hono();

app.use('*', async (c, next) => {
  await next();
  // The hub sets its own CORP (cross-origin) on API and file answers; keep what a route chose.
  for (const [k, v] of Object.entries(securityHeaders)) if (!c.res.headers.has(k)) c.res.headers.set(k, v);
});
app.route('/', hub.app);
// Vite's assets carry a content hash in their names: cache them for good (the preview's 28 MB
// onnxruntime .wasm is then fetched once, not on every visit).
app.use('/assets/*', async (c, next) => {
  await next();
  if (c.res.status === 200 && !c.res.headers.get('content-type')?.startsWith('text/html')) c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
});
app.use('/*', serveStatic({ root: './dist' }));
const indexHtml = existsSync('dist/index.html') ? readFileSync('dist/index.html', 'utf8') : '<!doctype html><p>Run <code>npm run build</code> first.</p>';
app.get('*', (c) => c.html(indexHtml));

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  printBanner(
    [
      `Hub Console: ${url}`,
      `Mock hub API: ${url}/api  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory (fresh)'}`,
      ...demoHubLines(demoRepoIds, specOnly),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
