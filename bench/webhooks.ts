// Receiving-server load: Hub Console's receiver against the peer users would otherwise run (a
// FastAPI app on uvicorn doing what huggingface_hub's WebhooksServer route does), each in its own
// process, driven by the same autocannon load with the same payload, in rotating order. The peer
// runs twice: on asyncio and h11, which is what the peer (Debian's python3-fastapi,
// python3-uvicorn and python3-pydantic) and a plain `pip install uvicorn` (as gradio requires it)
// give, and the target is against it; and on uvloop and httptools, which uvicorn takes when they
// are installed (`uvicorn[standard]`): shown without a target, so the margin is not overstated. Each server counts its handler calls by delivery id, checked against what was sent,
// so a lost or duplicated delivery shows up as a figure, not a guess.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ensurePythonWebStack } from '../scripts/ensure-deps.mjs';
import { figure, median, type Figure } from './figure.ts';
import { startServerProcess, type DeliveryCounts, type ServerProcess } from './server-process.ts';
import { deliveryFigures } from './webhooks-delivery.ts';
import { BENCH_SECRET as SECRET, CONNECTIONS, shoot, WARM_UP } from './webhooks-load.ts';
import { storeFigures } from './webhooks-store.ts';

// Smaller runs for a quick look: WEBHOOKS_BENCH_REPS=3 WEBHOOKS_BENCH_PER_REP=2000 npm run bench -- webhooks
// (WEBHOOKS_BENCH_PART=store: only the receiver with a store, webhooks-store.ts)
const REPS = Number(process.env.WEBHOOKS_BENCH_REPS ?? 5);
const PER_REP = Number(process.env.WEBHOOKS_BENCH_PER_REP ?? 5000);
const TARGET_RATIO = 3;

interface Tally {
  server: ServerProcess;
  rates: number[];
  cpuRates: number[];
  p99s: number[];
  sent: number;
  failed: number;
}

async function measure(t: Tally): Promise<void> {
  const cpu0 = t.server.cpuSeconds();
  const t0 = performance.now();
  const r = await shoot(t.server, PER_REP);
  const secs = (performance.now() - t0) / 1000;
  t.rates.push(r['2xx'] / secs);
  t.cpuRates.push(r['2xx'] / Math.max(t.server.cpuSeconds() - cpu0, 0.01));
  t.p99s.push(r.latency.p99);
  t.sent += PER_REP;
  // autocannon's errors include its timeouts.
  t.failed += r.non2xx + r.errors;
}

// Versions as the peer imports them; Debian's pydantic 1.10 is the pure-Python build (no Cython).
const VERSIONS_PY = `
import sys, fastapi, uvicorn, pydantic, uvloop, httptools
build = "" if not pydantic.VERSION.startswith("1.") else " compiled" if pydantic.compiled else " pure Python"
print(f"Python {sys.version.split()[0]}, FastAPI {fastapi.__version__}, uvicorn {uvicorn.__version__}, pydantic {pydantic.VERSION}{build}, uvloop {uvloop.__version__}, httptools {httptools.__version__}")
`;

function peerVersions(python: string): string {
  const r = spawnSync(python, ['-c', VERSIONS_PY], { encoding: 'utf8' });
  return r.stdout.trim() || 'versions unknown';
}

const PEERS = [
  { name: 'peer', args: ['--loop', 'uvloop', '--http', 'httptools'], label: 'peer on uvloop + httptools' },
  { name: 'peer-h11', args: ['--loop', 'asyncio', '--http', 'h11'], label: 'peer on asyncio + h11' },
] as const;

export default async function run(): Promise<Figure[]> {
  // The store part alone (about a minute): WEBHOOKS_BENCH_PART=store npm run bench -- webhooks
  if (process.env.WEBHOOKS_BENCH_PART === 'store') return storeFigures();
  const python = ensurePythonWebStack();
  const env = { WEBHOOK_SECRET: SECRET };
  const servers = [
    await startServerProcess(
      'receiver',
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./webhooks-receiver.ts', import.meta.url))],
      env,
    ),
  ];
  try {
    for (const p of PEERS)
      servers.push(
        await startServerProcess(
          p.name,
          python,
          [fileURLToPath(new URL('./webhooks-peer.py', import.meta.url)), ...p.args],
          env,
        ),
      );
  } catch (e) {
    await Promise.all(servers.map((s) => s.stop()));
    throw e;
  }
  const tallies = servers.map((server): Tally => ({ server, rates: [], cpuRates: [], p99s: [], sent: 0, failed: 0 }));
  // Other work on the machine takes CPU from autocannon and the servers; shown beside the rates.
  const loadAtStart = os.loadavg()[0]!;
  const counts: DeliveryCounts[] = [];
  try {
    for (const t of tallies) {
      await shoot(t.server, WARM_UP);
      await t.server.reset();
    }
    // Rotate which server goes first, so drift in the machine's load falls on all alike.
    for (let i = 0; i < REPS; i++)
      for (let j = 0; j < tallies.length; j++) await measure(tallies[(i + j) % tallies.length]!);
    for (const t of tallies) counts.push(await t.server.stats());
  } finally {
    await Promise.all(tallies.map((t) => t.server.stop()));
  }

  const [o, p, h] = tallies as [Tally, Tally, Tally];
  const versions = peerVersions(python);
  const runs = `median of ${REPS} x ${PER_REP}, ${CONNECTIONS} connections, loopback, rotating order`;
  const ratio = (a: number[], b: number[]) => Number((median(a) / median(b)).toFixed(2));
  const who = (t: Tally) =>
    t.server.name === 'receiver' ? 'receiving server' : PEERS.find((p) => p.name === t.server.name)!.label;
  return [
    figure(
      'webhooks',
      `receiving server (Hono, own process; handler validates the v3 payload): deliveries per second (${runs})`,
      Math.round(median(o.rates)),
      'req/s',
      { op: '>=', value: 2000 },
    ),
    figure(
      'webhooks',
      `peer (${versions}; huggingface_hub WebhooksServer route, one worker) on uvloop + httptools: deliveries per second (same load)`,
      Math.round(median(p.rates)),
      'req/s',
    ),
    figure(
      'webhooks',
      'peer on asyncio + h11 (Debian python3-uvicorn; a plain pip uvicorn, as gradio requires it): deliveries per second (same load)',
      Math.round(median(h.rates)),
      'req/s',
    ),
    figure(
      'webhooks',
      'receiving server / peer on asyncio + h11 (Debian python3-uvicorn), deliveries per second (ratio of medians)',
      ratio(o.rates, h.rates),
      'x',
      { op: '>=', value: TARGET_RATIO },
    ),
    figure(
      'webhooks',
      'receiving server / peer on uvloop + httptools (uvicorn[standard]), deliveries per second (ratio of medians)',
      ratio(o.rates, p.rates),
      'x',
    ),
    // Capacity independent of other work on the machine: the CPU time of each server process alone.
    ...tallies.map((t) =>
      figure(
        'webhooks',
        `${who(t)}: deliveries per CPU-second of its process (median)`,
        Math.round(median(t.cpuRates)),
        'req/cpu-s',
      ),
    ),
    figure(
      'webhooks',
      'receiving server / peer on asyncio + h11, deliveries per CPU-second (ratio of medians)',
      ratio(o.cpuRates, h.cpuRates),
      'x',
      { op: '>=', value: TARGET_RATIO },
    ),
    figure(
      'webhooks',
      'receiving server / peer on uvloop + httptools, deliveries per CPU-second (ratio of medians)',
      ratio(o.cpuRates, p.cpuRates),
      'x',
    ),
    figure(
      'webhooks',
      `machine load average at start (1 min, ${os.cpus().length} cores)`,
      Number(loadAtStart.toFixed(2)),
      'runnable',
    ),
    ...tallies.flatMap((t, i) => {
      const c = counts[i]!;
      return [
        figure('webhooks', `${who(t)}: latency p99 (median of runs)`, median(t.p99s), 'ms'),
        figure(
          'webhooks',
          `${who(t)}: lost deliveries (sent without a handler call for its id, of ${t.sent} sent)`,
          t.sent - c.distinct,
          'count',
          { op: '<=', value: 0 },
        ),
        figure('webhooks', `${who(t)}: duplicated handler calls`, c.duplicated, 'count', { op: '<=', value: 0 }),
        figure('webhooks', `${who(t)}: failed requests (non-2xx, errors, timeouts)`, t.failed, 'count', {
          op: '<=',
          value: 0,
        }),
      ];
    }),
    ...(await deliveryFigures()),
    ...(await storeFigures()),
  ];
}
