// `npm run bench [-- hub|webhooks|model|dashboard|preview|convert ...]`: every benchmark, one JSON line per figure.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { parseOrExit } from '../src/cli/command-line.ts';
import { BENCH_USAGE, parseBenchArgs } from './bench-args.ts';
import type { Figure } from './figure.ts';

const selected = parseOrExit(() => parseBenchArgs(process.argv.slice(2)), BENCH_USAGE);

// Each target is bounded: one that runs past this is reported as an error figure and the rest go on.
const TARGET_LIMIT_S = Number(process.env.BENCH_TARGET_TIMEOUT_S ?? 900);

function withinLimit<T>(p: Promise<T>, target: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${target} ran past ${TARGET_LIMIT_S} s (BENCH_TARGET_TIMEOUT_S)`)),
      TARGET_LIMIT_S * 1000,
    );
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

console.error(
  `# machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`,
);
const all: Figure[] = [];
for (const t of selected) {
  const file = new URL(`./${t}.ts`, import.meta.url);
  if (!existsSync(file)) {
    console.error(`# ${t}: no benchmark yet`);
    continue;
  }
  console.error(`# ${t}: running...`);
  const t0 = performance.now();
  try {
    const mod = (await import(file.href)) as { default: () => Promise<Figure[]> };
    for (const f of await withinLimit(mod.default(), t)) {
      all.push(f);
      console.log(JSON.stringify(f));
    }
    console.error(`# ${t}: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    const f: Figure = {
      bench: t,
      metric: 'error',
      value: String((err as Error).message ?? err),
      unit: '',
      target: null,
      ok: false,
    };
    all.push(f);
    console.log(JSON.stringify(f));
  }
}
console.error('\n' + ['bench', 'metric', 'value', 'unit', 'target', 'ok'].join('\t'));
for (const f of all) {
  const v = typeof f.value === 'number' ? Number(f.value.toPrecision(4)) : f.value;
  console.error([f.bench, f.metric, v, f.unit, f.target ?? '-', f.ok === null ? '-' : f.ok ? 'yes' : 'NO'].join('\t'));
}
const targets = all.filter((f) => f.ok !== null);
const missed = targets.filter((f) => !f.ok);
console.error(`\ntargets: ${targets.length - missed.length} met, ${missed.length} missed`);
for (const f of missed) console.error(`missed: ${f.bench}\t${f.metric}\t${f.value} ${f.unit} (target ${f.target})`);
// Missed targets are reported in the table (ok: false), not as a failed command.
process.exit(0);
