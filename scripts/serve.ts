// Serves the built dashboard (dist/) and the mock hub from one process.
// Flags: --port <n> (default 4700), --host <h>, --data <dir> (persist state), --fresh (in-memory),
// --repo <owner/name>=<folder> (repeatable: a local checkpoint folder served as a hub repo).
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { createMockHub } from '../src/mock-hub/app.ts';
import { repoFolderFlags } from '../src/mock-hub/files/repo-folder-flag.ts';
import { printBanner } from '../src/mock-hub/banner.ts';
import { stopOnSignals } from '../src/mock-hub/shutdown.ts';
import { demoCheckpoints } from '../src/model/demo-checkpoints.ts';
import { securityHeaders } from './security-headers.ts';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(flag('port') ?? process.env.PORT ?? 4700);
const host = flag('host') ?? '127.0.0.1';
const fresh = process.argv.includes('--fresh');
const dataDir = fresh ? undefined : flag('data');
const repoFolders = repoFolderFlags(process.argv.slice(2));

const hub = await createMockHub({ dataDir, baseUrl: `http://${host}:${port}` });
// The model preview's demo checkpoints (deterministic random weights, diffusers layout).
const demos = demoCheckpoints();
for (const d of demos) hub.registerRepoFiles(d.repoId, d.files);
for (const r of repoFolders) hub.registerRepoFolder(r.repoId, r.dir);
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
      `Demo checkpoints: ${demos.map((d) => d.repoId).join(', ')}`,
      ...repoFolders.map((r) => `Local repo: ${r.repoId} = ${r.dir}  (${url}/${r.repoId}/resolve/main/...)`),
    ],
    hub,
  );
});

stopOnSignals(server, hub);
