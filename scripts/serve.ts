// Serves the built dashboard (dist/) and the mock hub from one process (`npm start`; flags in
// serve-args.ts, --spec-only among them), or with --hub-url the dashboard alone, passing the hub's
// routes through to that hub (hub-proxy.ts).
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { printBanner } from '../src/mock-hub/banner.ts';
import { stopOnSignals } from '../src/mock-hub/shutdown.ts';
import { withProxiedHubMeta } from '../src/components/session/proxied-hub.ts';
import { createDemoHub, demoHubLines } from './demo-hub.ts';
import { hubProxyMiddleware } from './hub-proxy.ts';
import { proxiedSecurityHeaders, securityHeaders, withSecurityHeaders } from './security-headers.ts';
import { serveArgsOrExit } from './serve-args.ts';

const args = serveArgsOrExit(process.argv.slice(2), process.env);
const { port, host, dataDir, specOnly, hubUrl } = args;
const repoFolders = args.repoFolders ?? [];

const app = new Hono();
const pageHeaders = hubUrl ? proxiedSecurityHeaders : securityHeaders;
app.use('*', withSecurityHeaders(pageHeaders));
const demo = hubUrl
  ? undefined
  : await createDemoHub({ dataDir, baseUrl: `http://${host}:${port}`, specOnly, cors: args.cors ?? true }, repoFolders);
if (demo) app.route('/', demo.hub.app);
else app.use('*', hubProxyMiddleware({ hubUrl: hubUrl! }));
// Vite's assets carry a content hash in their names: cache them for good (the preview's 28 MB
// onnxruntime .wasm is then fetched once, not on every visit).
app.use('/assets/*', async (c, next) => {
  await next();
  if (c.res.status === 200 && !c.res.headers.get('content-type')?.startsWith('text/html'))
    c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
});
const builtHtml = existsSync('dist/index.html')
  ? readFileSync('dist/index.html', 'utf8')
  : '<!doctype html><p>Run <code>npm run build</code> first.</p>';
const indexHtml = hubUrl ? withProxiedHubMeta(builtHtml, hubUrl) : builtHtml;
// Proxied, every page must carry the hub's address, the start page too.
if (hubUrl) app.get('/', (c) => c.html(indexHtml)).get('/index.html', (c) => c.html(indexHtml));
app.use('/*', serveStatic({ root: './dist' }));
app.get('*', (c) => c.html(indexHtml));

const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  const url = `http://${host}:${info.port}`;
  if (!demo) {
    console.log(`Hub Console: ${url}`);
    console.log(`Hub: ${hubUrl} (passed through: ${url}/api/* and the file routes; no mock hub)`);
    return;
  }
  printBanner(
    [
      `Hub Console: ${url}`,
      `Mock hub API: ${url}/api  (OpenAPI: ${url}/openapi.json)`,
      `State: ${dataDir ? `persisted in ${dataDir}` : 'in memory (fresh)'}`,
      ...demoHubLines(demo.demoRepoIds, specOnly, repoFolders, url),
    ],
    demo.hub,
  );
});

if (demo) stopOnSignals(server, demo.hub);
else
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      server.close();
      process.exit(0);
    });
