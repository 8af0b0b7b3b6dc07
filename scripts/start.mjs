// `npm start`: install what is missing, build the dashboard, serve it on the embedded mock hub.
import { spawnSync } from 'node:child_process';
import { ensureNodeModules } from './ensure-deps.mjs';

ensureNodeModules();
console.log('[start] building the dashboard...');
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const args = ['--import', 'tsx', 'scripts/serve.ts', '--data', process.env.HUB_DATA_DIR ?? '.data', ...process.argv.slice(2)];
const serve = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(serve.status ?? 0);
