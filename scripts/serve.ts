// Serves the built dashboard (dist/) and the mock hub from one process (`npm start`; flags in
// serve-args.ts, --spec-only among them).
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { printBanner } from '../src/mock-hub/banner.ts';
import { stopOnSignals } from '../src/mock-hub/shutdown.ts';
import { createDemoHub, demoHubLines } from './demo-hub.ts';
import { securityHeaders } from './security-headers.ts';
import { serveArgsOrExit } from './serve-args.ts';

const { port, host, dataDir, specOnly, repoFolders = [] } = serveArgsOrExit(process.argv.slice(2), process.env);

const { hub, demoRepoIds } = await createDemoHub({ dataDir, baseUrl: `http://${host}:${port}`, specOnly }, repoFolders);
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
  if (c.res.status === 200 && !c.res.headers.get('content-type')?.startsWith('text/html'))
    c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
});
app.use('/*', serveStatic({ root: './dist' }));
const indexHtml = existsSync('dist/index.html')
  ? readFileSync('dist/index.html', 'utf8')
  : '<!doctype html><p>Run <code>npm run build</code> first.</p>';
app.get('*', (c) => c.html(indexHtml));

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  printBanner(
    [
      `Hub Console: ${url}`,
      `Mock hub API: ${url}/api  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory (fresh)'}`,
      ...demoHubLines(demoRepoIds, specOnly, repoFolders, url),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
