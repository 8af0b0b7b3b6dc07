// The GPU kit's bench (bench/gpu-kit.ts bundles this as gpu-bench.mjs): `npm run bench -- gpu`
// without npm, tsx or node_modules, one JSON line per figure on stdout as each is measured.
//   node gpu-bench.mjs              the configs of GPU_BENCH_CONFIGS (see bench/gpu.ts)
//   node gpu-bench.mjs --limit C    the most seconds config C may take (the kit's run.sh stops it there)
import gpuBench, { configLimitS } from './gpu.ts';

const [flag, name] = process.argv.slice(2);
if (flag === '--limit') console.log(configLimitS(name ?? ''));
else await gpuBench((f) => console.log(JSON.stringify(f)));
// Dawn's objects in the children never keep this process, but a stray handle must not either
process.exit(0);
