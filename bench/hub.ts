// Mock hub: audit-log export of 100,000 events over loopback HTTP (full body received), and
// GET /api/notifications under autocannon load. The hub runs in a child process so the load
// generator and the server do not share a thread.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { TOKENS } from '../src/mock-hub/seed/users.ts';
import { figure, median, type Figure } from './figure.ts';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const REPS = 5;
const LOAD_SECONDS = 3;
const CONNECTIONS = 10;
const AUTH = { authorization: `Bearer ${TOKENS.aliceWrite}` };
const EXPORT = '/api/organizations/acme/audit-log/export';
const GROUP = '/api/organizations/acme/resource-groups/1945c495ec9458913a736cea';

/** CPU seconds (user + system) the process used so far, from /proc (Linux; clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

async function startHub(): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/hub.ts', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Mock hub: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`mock hub exited (${code})`)));
  });
  return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/** Time until the last byte of the export arrived; chunks are kept only when asked for. */
function timedExport(url: string, keep = false): Promise<{ ms: number; bytes: number; chunks: Buffer[] }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    get(url + EXPORT, { headers: AUTH }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`audit export answered ${res.statusCode}`));
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => {
        bytes += d.byteLength;
        if (keep) chunks.push(d);
      });
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes, chunks }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** A write adds an audit event, so the next export cannot come from the cache. */
async function touch(url: string, i: number): Promise<void> {
  const res = await fetch(url + GROUP, {
    method: 'PATCH',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ description: `bench ${i}` }),
  });
  if (res.status !== 200) throw new Error(`resource group PATCH answered ${res.status}`);
}

export default async function run(): Promise<Figure[]> {
  const hub = await startHub();
  try {
    const first = await timedExport(hub.url, true);
    const count = (JSON.parse(Buffer.concat(first.chunks).toString('utf8')) as unknown[]).length;
    if (count !== 100_000) throw new Error(`audit export returned ${count} events, expected 100000`);
    const miss: number[] = [];
    const hit: number[] = [];
    for (let i = 0; i < REPS; i++) {
      await touch(hub.url, i);
      miss.push((await timedExport(hub.url)).ms);
      hit.push((await timedExport(hub.url)).ms);
    }

    const shoot = (duration: number, path = '/api/notifications') =>
      autocannon({ url: `${hub.url}${path}`, headers: AUTH, connections: CONNECTIONS, duration, timeout: 10 });
    await shoot(1);
    // The same server's trivial route: the ceiling this machine allows right now, for comparison.
    const baseline = await shoot(LOAD_SECONDS, '/api/health');
    const rates: number[] = [];
    const p99s: number[] = [];
    const perCpuSecond: number[] = [];
    let failures = 0;
    for (let i = 0; i < REPS; i++) {
      const cpu0 = cpuSeconds(hub.pid);
      const r = await shoot(LOAD_SECONDS);
      const cpu1 = cpuSeconds(hub.pid);
      rates.push(r.requests.average);
      p99s.push(r.latency.p99);
      failures += r.non2xx + r.errors + r.timeouts;
      if (cpu0 !== undefined && cpu1 !== undefined && cpu1 > cpu0)
        perCpuSecond.push((r.requests.average * LOAD_SECONDS) / (cpu1 - cpu0));
    }
    return [
      figure('hub', 'audit export 100k events, cache miss (median of 5)', Math.round(median(miss)), 'ms', {
        op: '<',
        value: 1500,
      }),
      figure('hub', 'audit export 100k events, cached (median of 5)', Math.round(median(hit)), 'ms'),
      figure('hub', 'audit export body size', Number((first.bytes / 2 ** 20).toFixed(1)), 'MiB'),
      figure(
        'hub',
        `GET /api/notifications throughput (${CONNECTIONS} conns, ${LOAD_SECONDS} s, median of 5)`,
        Math.round(median(rates)),
        'req/s',
        { op: '>=', value: 3000 },
      ),
      figure('hub', 'GET /api/notifications p99 latency (median of 5)', median(p99s), 'ms', { op: '<', value: 25 }),
      figure('hub', 'GET /api/notifications non-2xx, errors and timeouts', failures, 'count', { op: '<=', value: 0 }),
      figure(
        'hub',
        `baseline GET /api/health throughput (same server, ${LOAD_SECONDS} s)`,
        Math.round(baseline.requests.average),
        'req/s',
      ),
      // Throughput per CPU-second of the hub process: what one core sustains when the machine is shared.
      ...(perCpuSecond.length
        ? [
            figure(
              'hub',
              'GET /api/notifications served per CPU-second of the hub (median)',
              Math.round(median(perCpuSecond)),
              'req/cpu-s',
            ),
          ]
        : []),
    ];
  } finally {
    hub.stop();
  }
}
