// `npm run bench [-- hub|webhooks|model|dashboard|preview ...]`: every benchmark, one JSON line per figure.
import { existsSync } from 'node:fs';
import os from 'node:os';
import type { Figure } from './figure.ts';

const targets = ['hub', 'webhooks', 'model', 'dashboard', 'preview'] as const;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const selected = wanted.length ? targets.filter((t) => wanted.includes(t)) : [...targets];
const unknown = wanted.filter((w) => !(targets as readonly string[]).includes(w));
if (unknown.length) {
  console.error(`unknown bench target(s): ${unknown.join(', ')}; choose from ${targets.join(', ')}`);
  process.exit(2);
}

console.error(`# machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
const all: Figure[] = [];
for (const t of selected) {
  const file = new URL(`./${t}.ts`, import.meta.url);
  if (!existsSync(file)) {
    console.error(`# ${t}: no benchmark yet`);
    continue;
  }
  const mod = (await import(file.href)) as { default: () => Promise<Figure[]> };
  console.error(`# ${t}: running...`);
  try {
    for (const f of await mod.default()) {
      all.push(f);
      console.log(JSON.stringify(f));
    }
  } catch (err) {
    const f: Figure = { bench: t, metric: 'error', value: String((err as Error).message ?? err), unit: '', target: null, ok: false };
    all.push(f);
    console.log(JSON.stringify(f));
  }
}
console.error('\n' + ['bench', 'metric', 'value', 'unit', 'target', 'ok'].join('\t'));
for (const f of all) {
  const v = typeof f.value === 'number' ? Number(f.value.toPrecision(4)) : f.value;
  console.error([f.bench, f.metric, v, f.unit, f.target ?? '-', f.ok === null ? '-' : f.ok ? 'yes' : 'NO'].join('\t'));
}
// Missed targets are reported in the table (ok: false), not as a failed command.
process.exit(0);
