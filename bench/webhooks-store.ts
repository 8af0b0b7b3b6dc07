// The receiving server with a delivery store (`{ store }`): acknowledged deliveries per second when
// each delivery is synced on its own and with group commit, ack latency while every handler takes
// 5 s, and the time to come back after a kill with 10,000 deliveries stored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { samplePayload } from '../src/webhooks/sample-payload.ts';
import { DeliveryStore } from '../src/webhooks/store/delivery-store.ts';
import { figure, median, type Figure } from './figure.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { BENCH_SECRET, CONNECTIONS, shoot, WARM_UP, type AutocannonResult } from './webhooks-load.ts';

const PER_DELIVERY_AMOUNT = Number(process.env.WEBHOOKS_BENCH_FSYNC_EACH ?? 400);
const GROUP_AMOUNT = Number(process.env.WEBHOOKS_BENCH_GROUP ?? 5000);
/** Group commit is measured as the store-off receiver is: warmed up, then the median of a few runs. */
const GROUP_REPS = Number(process.env.WEBHOOKS_BENCH_GROUP_REPS ?? 3);
const SLOW_AMOUNT = 2000;
const SLOW_REPS = 3;
const SLOW_HANDLER_MS = 5000;
const RESUME_STORED = 10_000;
const RESUME_PENDING = 100;

interface StoreStats {
  calls: number;
  distinct: number;
  duplicated: number;
  readyMs: number;
}

async function withReceiver<T>(
  env: Record<string, string>,
  run: (server: ServerProcess, dir: string) => Promise<T>,
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-bench-store-')),
): Promise<T> {
  const server = await startServerProcess(
    'receiver-store',
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./webhooks-receiver.ts', import.meta.url))],
    { WEBHOOK_SECRET: BENCH_SECRET, WEBHOOKS_BENCH_STORE: dir, ...env },
  );
  try {
    return await run(server, dir);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const stats = async (s: ServerProcess) => (await s.stats()) as unknown as StoreStats;

async function waitHandled(server: ServerProcess, count: number, limitMs = 60_000): Promise<StoreStats> {
  const deadline = Date.now() + limitMs;
  let s = await stats(server);
  while (s.distinct < count && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 200));
    s = await stats(server);
  }
  return s;
}

/**
 * Acknowledged per second, median of `reps` runs after a warm-up of WARM_UP deliveries (as the
 * store-off receiver is measured: a receiver just started runs its first thousands of deliveries
 * while V8 is still compiling its hot code, on the same two cores); after each run, waits for the
 * handlers to catch up and counts what they saw.
 */
async function ackRate(server: ServerProcess, amount: number, reps = 1) {
  // Warm-up, not counted: its deliveries are handled before the counts are cleared.
  await waitHandled(server, (await shoot(server, WARM_UP))['2xx']);
  const rates: number[] = [];
  const cpuRates: number[] = [];
  const total = { acked: 0, failed: 0, handled: 0, duplicated: 0 };
  for (let i = 0; i < reps; i++) {
    await server.reset();
    const cpu0 = server.cpuSeconds();
    const t0 = performance.now();
    const r: AutocannonResult = await shoot(server, amount);
    rates.push(r['2xx'] / ((performance.now() - t0) / 1000));
    const s = await waitHandled(server, r['2xx']);
    // Accepting, storing and handling each delivery, in CPU time of the receiver alone: what other work
    // on the machine does not change.
    cpuRates.push(s.distinct / Math.max(server.cpuSeconds() - cpu0, 0.01));
    total.acked += r['2xx'];
    total.failed += r.non2xx + r.errors;
    total.handled += s.distinct;
    total.duplicated += s.duplicated;
  }
  return { rate: median(rates), cpuRate: median(cpuRates), ...total };
}

/** A store as a kill leaves it: 10,000 deliveries, the last 100 not yet handled, and a torn last record. */
async function fillStore(dir: string): Promise<void> {
  const store = DeliveryStore.open(dir, { fsync: false });
  const base = samplePayload();
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < RESUME_STORED; i++) {
    const body = JSON.stringify({ ...base, repo: { ...base.repo, headSha: `resume-${i}` } });
    const id = `resume-${i}`;
    writes.push(store.add({ id, route: 'bench', headers: { 'content-type': 'application/json' }, body }));
    if (i < RESUME_STORED - RESUME_PENDING)
      writes.push(
        store.update(id, {
          state: 'done',
          attempts: [{ n: 1, startedAt: Date.now(), endedAt: Date.now() + 3 }],
          result: { ok: true },
        }),
      );
  }
  await Promise.all(writes);
  await store.close();
  const segment = fs.readdirSync(dir).find((n) => n.endsWith('.wal'))!;
  const file = path.join(dir, segment);
  fs.appendFileSync(file, Buffer.from([0x40, 0, 0, 0, 0x12, 0x34]));
  // Acknowledged deliveries were on disk before the kill: so are these, before the clock starts.
  const fd = fs.openSync(file, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
}

export async function storeFigures(): Promise<Figure[]> {
  const each = await withReceiver({ WEBHOOKS_BENCH_GROUP_COMMIT: '0' }, (s) => ackRate(s, PER_DELIVERY_AMOUNT));
  const group = await withReceiver({}, (s) => ackRate(s, GROUP_AMOUNT, GROUP_REPS));
  // Warmed up as the other parts are, then the median of SLOW_REPS runs' percentiles; the handlers'
  // backlog keeps growing through all of them (5 s each, one at a time per route).
  const slow = await withReceiver({ WEBHOOKS_BENCH_HANDLER_MS: String(SLOW_HANDLER_MS) }, async (s) => {
    await shoot(s, WARM_UP);
    const runs: AutocannonResult[] = [];
    for (let i = 0; i < SLOW_REPS; i++) runs.push(await shoot(s, SLOW_AMOUNT));
    return {
      latency: {
        p50: median(runs.map((r) => r.latency.p50)),
        p99: median(runs.map((r) => r.latency.p99)),
      },
    };
  });
  const resumeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-bench-resume-'));
  await fillStore(resumeDir);
  const resume = await withReceiver({}, async (s) => (await stats(s)).readyMs, resumeDir);
  const load = `${CONNECTIONS} connections, loopback, fsync on`;
  return [
    figure(
      'webhooks',
      `receiving server with store, fsync per delivery: acknowledged deliveries per second (${PER_DELIVERY_AMOUNT}, ${load})`,
      Math.round(each.rate),
      'req/s',
    ),
    figure(
      'webhooks',
      'receiving server with store, group commit: deliveries acknowledged and handled per CPU-second of its process',
      Math.round(group.cpuRate),
      'req/cpu-s',
    ),
    figure(
      'webhooks',
      `receiving server with store: lost deliveries (acknowledged, never handled; of ${each.acked + group.acked})`,
      each.acked - each.handled + (group.acked - group.handled),
      'count',
      { op: '<=', value: 0 },
    ),
    figure(
      'webhooks',
      'receiving server with store: failed requests and duplicated handler calls',
      each.failed + group.failed + each.duplicated + group.duplicated,
      'count',
      { op: '<=', value: 0 },
    ),
    figure(
      'webhooks',
      `receiving server with store, handlers taking ${SLOW_HANDLER_MS / 1000} s each: ack latency p50 (median of ${SLOW_REPS} x ${SLOW_AMOUNT} after ${WARM_UP}, ${load})`,
      slow.latency.p50,
      'ms',
    ),
    // The three targets for the store, last so they close the table.
    figure(
      'webhooks',
      `STORE TARGET: receiving server with store, group commit: acknowledged deliveries per second (median of ${GROUP_REPS} x ${GROUP_AMOUNT} after ${WARM_UP}, ${load})`,
      Math.round(group.rate),
      'req/s',
      { op: '>=', value: 2000 },
    ),
    figure(
      'webhooks',
      `STORE TARGET: receiving server with store, handlers taking ${SLOW_HANDLER_MS / 1000} s each: ack latency p99 (median of ${SLOW_REPS} x ${SLOW_AMOUNT} after ${WARM_UP}, ${load})`,
      slow.latency.p99,
      'ms',
      { op: '<=', value: 20 },
    ),
    figure(
      'webhooks',
      `STORE TARGET: receiving server with store: resume after a kill with ${RESUME_STORED} stored (${RESUME_PENDING} pending, torn last record): open, resume, listen`,
      Math.round(resume),
      'ms',
      { op: '<=', value: 1000 },
    ),
  ];
}
