// `npm start`: install what is missing, build the dashboard, serve it on the embedded mock hub (or, with
// --hub-url, in front of that hub: docs/hub-proxy.md).
// The flags go to scripts/serve.ts untouched; they are checked first, so a typo fails before the build.
import { spawnSync } from 'node:child_process';
import { ensureNodeModules } from './ensure-deps.mjs';

ensureNodeModules();
const argv = process.argv.slice(2);
const { tsImport } = await import('tsx/esm/api');
const { serveArgsOrExit } = await tsImport('./serve-args.ts', import.meta.url);
serveArgsOrExit(argv, process.env);

console.log('[start] building the dashboard...');
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const serve = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/serve.ts', ...argv], { stdio: 'inherit' });
process.exit(serve.status ?? 0);
