// `npm test [-- <step>]`: everything a change must pass. Typecheck, lint, unit tests, build, e2e.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ensureChromium, ensureNodeModules } from './ensure-deps.mjs';

const steps = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  // Lint is ESLint (layers, types, hooks) and Prettier's check of the format (`npm run format` fixes it).
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['unit', 'npx', ['vitest', 'run']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['e2e', 'npx', ['playwright', 'test']],
];
let only;
try {
  const { positionals } = parseArgs({ options: {}, allowPositionals: true, strict: true });
  if (positionals.length > 1 || (positionals[0] && !steps.some(([name]) => name === positionals[0])))
    throw new Error(`unknown step "${positionals.join(' ')}"`);
  only = positionals[0];
} catch (e) {
  console.error(`${e.message}\nusage: npm test [-- ${steps.map(([name]) => name).join('|')}]`);
  process.exit(2);
}
ensureNodeModules();
const results = [];
for (const [name, cmd, args] of steps) {
  if (only && only !== name) continue;
  if (name === 'e2e') ensureChromium();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  results.push({ name, ok, secs: ((Date.now() - t0) / 1000).toFixed(1) });
  if (!ok) break;
}
console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.secs}s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
