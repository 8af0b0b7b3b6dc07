// Receiving-server load: Hub Console's receiver against the peer users would otherwise run (a
// FastAPI app on uvicorn doing what huggingface_hub's WebhooksServer route does), each in its own
// process, driven by the same autocannon load with the same payload, in alternating order. Every
// handler call is counted against autocannon's 2xx count, so a lost or duplicated delivery shows
// up as a figure, not a guess.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ensurePythonWebStack } from '../scripts/ensure-deps.mjs';
import { samplePayload } from '../src/webhooks/sample-payload.ts';
import { figure, median, type Figure } from './figure.ts';
import { startServerProcess, type DeliveryCounts, type ServerProcess } from './server-process.ts';
import { deliveryFigures } from './webhooks-delivery.ts';

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const REPS = 5;
const PER_REP = 5000;
const WARM_UP = 1000;
const CONNECTIONS = 16;
const SECRET = 'bench-secret';
const TARGET_RATIO = 3;

// autocannon replaces [<id>] with a unique id per request, which both handlers count.
const BODY = JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, headSha: '[<id>]' } }));

function shoot(server: ServerProcess, amount: number): Promise<AutocannonResult> {
  return autocannon({
    url: `${server.url}/webhooks/bench`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET },
    body: BODY,
    idReplacement: true,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    // autocannon reports at its next sample tick (1 s by default), which would round short runs up.
    sampleInt: 20,
  });
}

interface Tally {
  server: ServerProcess;
  rates: number[];
  cpuRates: number[];
  p99s: number[];
  sent: number;
  ok2xx: number;
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
  t.ok2xx += r['2xx'];
  t.failed += r.non2xx + r.errors + r.timeouts;
}

function peerVersions(python: string): string {
  const r = spawnSync(python, ['-c', 'import fastapi, uvicorn, pydantic; print(f"FastAPI {fastapi.__version__}, uvicorn {uvicorn.__version__}, pydantic {pydantic.VERSION}")'], { encoding: 'utf8' });
  return r.stdout.trim() || 'versions unknown';
}

export default async function run(): Promise<Figure[]> {
  const python = ensurePythonWebStack();
  const env = { WEBHOOK_SECRET: SECRET };
  const ours = await startServerProcess('receiver', process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./webhooks-receiver.ts', import.meta.url))], env);
  const peer = await startServerProcess('peer', python, [fileURLToPath(new URL('./webhooks-peer.py', import.meta.url))], env).catch(async (e: unknown) => {
    await ours.stop();
    throw e;
  });
  const tallies = [ours, peer].map((server): Tally => ({ server, rates: [], cpuRates: [], p99s: [], sent: 0, ok2xx: 0, failed: 0 }));
  // Other work on the machine takes CPU from autocannon and both servers; shown beside the rates.
  const loadAtStart = os.loadavg()[0]!;
  const counts: DeliveryCounts[] = [];
  try {
    for (const t of tallies) {
      await shoot(t.server, WARM_UP); // JIT, imports, sockets; not counted
      await t.server.reset();
    }
    // Alternate which server goes first, so drift in the machine's load falls on both alike.
    for (let i = 0; i < REPS; i++) for (const t of i % 2 ? [...tallies].reverse() : tallies) await measure(t);
    for (const t of tallies) counts.push(await t.server.stats());
  } finally {
    await Promise.all(tallies.map((t) => t.server.stop()));
  }

  const [o, p] = tallies as [Tally, Tally];
  const label = { receiver: 'receiving server (Hono, own process)', peer: `peer (${peerVersions(python)}; huggingface_hub WebhooksServer route)` };
  const runs = `median of ${REPS} x ${PER_REP}, ${CONNECTIONS} connections, loopback, alternating order`;
  return [
    figure('webhooks', `${label.receiver}: deliveries per second (${runs})`, Math.round(median(o.rates)), 'req/s', { op: '>=', value: 2000 }),
    figure('webhooks', `${label.peer}: deliveries per second (same load)`, Math.round(median(p.rates)), 'req/s'),
    figure('webhooks', 'receiving server / peer, deliveries per second (ratio of medians)', Number((median(o.rates) / median(p.rates)).toFixed(2)), 'x', { op: '>=', value: TARGET_RATIO }),
    // Capacity independent of other work on the machine: the CPU time of each server process alone.
    figure('webhooks', 'receiving server: deliveries per CPU-second of its process (median)', Math.round(median(o.cpuRates)), 'req/cpu-s'),
    figure('webhooks', 'peer: deliveries per CPU-second of its process (median)', Math.round(median(p.cpuRates)), 'req/cpu-s'),
    figure('webhooks', 'receiving server / peer, deliveries per CPU-second (ratio of medians)', Number((median(o.cpuRates) / median(p.cpuRates)).toFixed(2)), 'x', { op: '>=', value: TARGET_RATIO }),
    figure('webhooks', `machine load average at start (1 min, ${os.cpus().length} cores)`, Number(loadAtStart.toFixed(2)), 'runnable'),
    ...tallies.flatMap((t, i) => {
      const c = counts[i]!;
      const who = t.server.name === 'receiver' ? 'receiving server' : 'peer';
      return [
        figure('webhooks', `${who}: latency p99 (median of runs)`, median(t.p99s), 'ms'),
        figure('webhooks', `${who}: lost deliveries (2xx without a handler call, of ${t.sent} sent)`, t.ok2xx - c.distinct, 'count', { op: '<=', value: 0 }),
        figure('webhooks', `${who}: duplicated handler calls`, c.duplicated, 'count', { op: '<=', value: 0 }),
        figure('webhooks', `${who}: failed requests (non-2xx, errors, timeouts)`, t.failed, 'count', { op: '<=', value: 0 }),
      ];
    }),
    ...(await deliveryFigures()),
  ];
}
