// `npm test [-- <step>]`: everything a change must pass. Typecheck, lint, unit tests, build, e2e.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ensureChromium, ensureNodeModules } from './ensure-deps.mjs';

/**
 * The steps in groups: a group's steps run at the same time (each is one process on one core, so
 * two cores finish the first group in about the time of its longest step), the groups one after
 * another. The unit tests and e2e keep both cores busy on their own; e2e needs the build.
 */
const groups = [
  [
    ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
    // Lint is ESLint (layers, types, hooks) and Prettier's check of the format (`npm run format` fixes it).
    ['lint', 'npm', ['run', '--silent', 'lint']],
    ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ],
  [['unit', 'npx', ['vitest', 'run']]],
  [['e2e', 'npx', ['playwright', 'test']]],
];
const steps = groups.flat();
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

/** Runs one step; beside others, its output is held and printed in one piece when it ends. */
function run([name, cmd, args], alone) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}${alone ? '' : ' (output when it ends)'}`);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: process.env });
    const output = [];
    child.stdout?.on('data', (d) => output.push(d));
    child.stderr?.on('data', (d) => output.push(d));
    child.on('error', (e) => output.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      const ok = code === 0;
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      if (!alone) {
        console.log(`\n=== ${name} ${ok ? 'passed' : 'FAILED'} (${secs}s)`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, ok, secs });
    });
  });
}

ensureNodeModules();
const results = [];
for (const group of groups) {
  const chosen = group.filter(([name]) => !only || only === name);
  if (!chosen.length) continue;
  if (chosen.some(([name]) => name === 'e2e')) ensureChromium();
  results.push(...(await Promise.all(chosen.map((step) => run(step, chosen.length === 1)))));
  if (results.some((r) => !r.ok)) break;
}
console.log('\n=== summary');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.secs}s)`);
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
// exitCode, not exit(): a step's held output may still be on its way to a pipe or file
process.exitCode = failed ? 1 : 0;
