// The fault test: 500 deliveries at 16 connections to a stored receiver in a child process, whose
// handler takes 50-500 ms and throws on every 7th first attempt; the receiver is SIGKILLed twice
// (once while deliveries are still arriving, once while handlers run) and restarted on the same
// store. Afterwards every acknowledged delivery is done, and the handler's side effect shows every
// id; an id shows twice only where the store records an attempt cut by a kill. Loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { samplePayload } from './sample-payload.ts';
import { DeliveryStore } from './store/delivery-store.ts';

const DELIVERIES = 500;
const CONNECTIONS = 16;
const KILL_AT_ACKED = 200;
const KILL_AT_EFFECTS = 150;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-fault-'));
const store = path.join(dir, 'store');
const effects = path.join(dir, 'effects.log');
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<string> {
  child = spawn(process.execPath, ['--import', 'tsx', 'src/webhooks/fault-receiver.ts'], {
    env: { ...process.env, FAULT_STORE: store, FAULT_EFFECTS: effects, WEBHOOK_SECRET: '', WEBHOOKS_STORE: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  const url = /^listening (\S+)$/.exec(String(first.value))?.[1];
  if (!url) throw new Error(`fault receiver said "${String(first.value)}"`);
  return url;
}

async function kill(): Promise<void> {
  const gone = once(child!, 'exit');
  child!.kill('SIGKILL');
  await gone;
}

const effectLines = () => (fs.existsSync(effects) ? fs.readFileSync(effects, 'utf8').split('\n').filter(Boolean) : []);
const body = (n: number) => JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, name: `fault/${n}` } }));

describe('fault test: SIGKILL twice under load', () => {
  it('loses no acknowledged delivery and runs each once, but for attempts a kill cut', async () => {
    let url: string | undefined = await start();
    const acked = new Map<number, string>();
    let next = 0;
    // A sender like the hub: a delivery that got no 2xx is sent again, until one comes.
    const sender = async () => {
      for (let n = next++; n < DELIVERIES; n = next++) {
        for (;;) {
          const target = url;
          if (target !== undefined) {
            try {
              const res = await fetch(`${target}/webhooks/work`, { method: 'POST', body: body(n) });
              const answer = (await res.json()) as { deliveryId?: string };
              if (res.ok && answer.deliveryId) {
                acked.set(n, answer.deliveryId);
                break;
              }
            } catch {
              // Killed mid-request: not acknowledged, so sent again.
            }
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const kills: string[] = [];
    const killer = async () => {
      while (acked.size < KILL_AT_ACKED) await new Promise((r) => setTimeout(r, 5));
      url = undefined;
      await kill();
      kills.push(`after ${acked.size} acknowledged`);
      url = await start();
      const before = effectLines().length;
      while (effectLines().length < before + KILL_AT_EFFECTS) await new Promise((r) => setTimeout(r, 10));
      url = undefined;
      await kill();
      kills.push(`after ${effectLines().length} side effects, ${acked.size} acknowledged`);
      url = await start();
    };
    await Promise.all([killer(), ...Array.from({ length: CONNECTIONS }, sender)]);
    expect(acked.size).toBe(DELIVERIES);

    // Wait until every delivery is done (or the bound runs out).
    const deadline = Date.now() + 45_000;
    let states: Record<string, number> = {};
    while (Date.now() < deadline) {
      const list = (await (await fetch(`${url}/deliveries?limit=10000`)).json()) as { deliveries: { state: string }[] };
      states = {};
      for (const d of list.deliveries) states[d.state] = (states[d.state] ?? 0) + 1;
      if (states.done === DELIVERIES) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(states).toEqual({ done: DELIVERIES });
    child!.kill('SIGTERM');
    await once(child!, 'exit');

    const stored = DeliveryStore.open(store, { fsync: false });
    const perId = new Map<string, number[]>();
    for (const line of effectLines()) {
      const [id, attempt] = line.split(' ');
      perId.set(id!, [...(perId.get(id!) ?? []), Number(attempt)]);
    }
    const duplicates: string[] = [];
    for (const [n, id] of acked) {
      const d = stored.get(id)!;
      expect(d.state, `delivery ${n}`).toBe('done');
      const ran = perId.get(id) ?? [];
      // The attempt that succeeded left its side effect; any other one left by an attempt a kill cut.
      expect(ran, `side effects of delivery ${n}`).toContain(d.attempts.at(-1)!.n);
      for (const attempt of ran.filter((a) => a !== d.attempts.at(-1)!.n)) {
        expect(d.attempts[attempt - 1]!.error, `delivery ${n}, attempt ${attempt}`).toMatch(/interrupted/);
        duplicates.push(`delivery ${n} (${id}): attempt ${attempt} cut by a kill after its side effect`);
      }
      // Every 7th failed its first attempt on purpose, unless a kill cut that attempt first.
      if (n % 7 === 0)
        expect(d.attempts[0]!.error).toMatch(new RegExp(`^planned failure of delivery ${n}$|interrupted`));
    }
    await stored.close();
    expect(kills).toHaveLength(2);
    console.log(
      `fault test: ${DELIVERIES} acknowledged, all done; kills ${kills.join('; ')}; ` +
        `${duplicates.length} duplicate side effect(s)${duplicates.length ? `:\n  ${duplicates.join('\n  ')}` : ''}`,
    );
  });
});
