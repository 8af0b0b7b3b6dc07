// Receiving-server load: deliveries/s on loopback, with every handler call counted against
// autocannon's 2xx count so a lost or duplicated delivery shows up as a figure, not a guess.
import { createRequire } from 'node:module';
import os from 'node:os';
import { samplePayload } from '../src/webhooks/sample-payload.ts';
import { createWebhooksServer } from '../src/webhooks/server.ts';
import { figure, median, type Figure } from './figure.ts';
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
const CONNECTIONS = 16;
const SECRET = 'bench-secret';

export default async function run(): Promise<Figure[]> {
  const ids = new Map<string, number>();
  const server = createWebhooksServer({ secret: SECRET, logger: { info() {}, warn() {}, error() {} } });
  server.add((payload) => {
    const id = payload.repo.headSha ?? '';
    ids.set(id, (ids.get(id) ?? 0) + 1);
    return { ok: true };
  }, 'bench');
  const { url, close } = await server.listen(0, '127.0.0.1');

  // autocannon replaces [<id>] with a unique id per request, which the handler records.
  const body = JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, headSha: '[<id>]' } }));
  const shoot = (amount: number) =>
    autocannon({
      url: `${url}/webhooks/bench`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET },
      body,
      idReplacement: true,
      connections: CONNECTIONS,
      amount,
      timeout: 10,
    });

  // Other work on the machine takes CPU from both autocannon and the server; shown beside the rate.
  const loadAtStart = os.loadavg()[0]!;
  const rates: number[] = [];
  const cpuRates: number[] = [];
  const p99s: number[] = [];
  let sent = 0;
  let ok2xx = 0;
  let failed = 0;
  try {
    await shoot(1000); // warm-up: JIT, sockets; not counted
    ids.clear();
    for (let i = 0; i < REPS; i++) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      const r = await shoot(PER_REP);
      const secs = (performance.now() - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      rates.push(r['2xx'] / secs);
      cpuRates.push(r['2xx'] / ((cpu.user + cpu.system) / 1e6));
      p99s.push(r.latency.p99);
      sent += PER_REP;
      ok2xx += r['2xx'];
      failed += r.non2xx + r.errors + r.timeouts;
    }
  } finally {
    await close();
  }

  let calls = 0;
  let duplicated = 0;
  for (const n of ids.values()) {
    calls += n;
    if (n > 1) duplicated += n - 1;
  }
  return [
    figure('webhooks', 'deliveries per second (median of 5 x 5000, 16 connections, loopback)', Math.round(median(rates)), 'req/s', { op: '>=', value: 2000 }),
    figure('webhooks', 'deliveries per second (slowest run)', Math.round(Math.min(...rates)), 'req/s'),
    // Capacity independent of other work on the machine: CPU time of this process (receiving
    // server and autocannon together, so it understates the server alone).
    figure('webhooks', 'deliveries per CPU-second of server + load generator (median)', Math.round(median(cpuRates)), 'req/cpu-s'),
    figure('webhooks', `machine load average at start (1 min, ${os.cpus().length} cores)`, Number(loadAtStart.toFixed(2)), 'runnable'),
    figure('webhooks', 'latency p99 (median of runs)', median(p99s), 'ms'),
    figure('webhooks', `lost deliveries (2xx without a handler call, of ${sent} sent)`, ok2xx - (calls - duplicated), 'count', { op: '<=', value: 0 }),
    figure('webhooks', 'duplicated handler calls', duplicated, 'count', { op: '<=', value: 0 }),
    figure('webhooks', 'failed requests (non-2xx, errors, timeouts)', failed, 'count', { op: '<=', value: 0 }),
    ...(await deliveryFigures()),
  ];
}
