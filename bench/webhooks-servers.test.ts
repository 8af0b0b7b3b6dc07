// The two servers `npm run bench -- webhooks` compares answer the same requests alike, and count
// what they deliver, so the rates compare like with like.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianPython } from '../scripts/ensure-deps.mjs';
import { samplePayload } from '../src/webhooks/sample-payload.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const python = debianPython();
const hasPeerStack = spawnSync(python, ['-c', 'import fastapi, uvicorn, pydantic'], { stdio: 'ignore' }).status === 0;
const SECRET = 'test-secret';
const file = (name: string) => fileURLToPath(new URL(name, import.meta.url));

const servers: ServerProcess[] = [];

beforeAll(async () => {
  servers.push(await startServerProcess('receiver', process.execPath, ['--import', 'tsx', file('./webhooks-receiver.ts')], { WEBHOOK_SECRET: SECRET }));
  if (hasPeerStack) servers.push(await startServerProcess('peer', python, [file('./webhooks-peer.py')], { WEBHOOK_SECRET: SECRET }));
});
afterAll(() => Promise.all(servers.map((s) => s.stop())));

const post = (s: ServerProcess, body: unknown, secret?: string) =>
  fetch(`${s.url}/webhooks/bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { 'x-webhook-secret': secret }) },
    body: JSON.stringify(body),
  }).then((r) => r.status);

const delivery = (headSha: string) => samplePayload({ repo: { ...samplePayload().repo, headSha } });

describe.each([['receiver'], ['peer']])('bench server: %s', (name) => {
  const server = () => servers.find((s) => s.name === name)!;

  it.skipIf(name === 'peer' && !hasPeerStack)('accepts the bench payload, refuses a missing or wrong secret and a non-payload', async () => {
    const s = server();
    await s.reset();
    expect(await post(s, delivery('a'), SECRET)).toBe(200);
    expect(await post(s, delivery('b'), SECRET)).toBe(200);
    expect(await post(s, delivery('b'), SECRET)).toBe(200);
    expect(await post(s, delivery('c'))).toBe(401);
    expect(await post(s, delivery('c'), 'wrong')).toBe(403);
    // Not a payload for either: no repo. (Values a newer hub adds, such as webhook.version 4, are
    // accepted by this project's receiver but refused by the pydantic peer, so they are not compared.)
    const { repo: _repo, ...noRepo } = delivery('c');
    expect(await post(s, noRepo, SECRET)).toBe(422);
    expect(await s.stats()).toEqual({ calls: 3, distinct: 2, duplicated: 1 });
    await s.reset();
    expect(await s.stats()).toEqual({ calls: 0, distinct: 0, duplicated: 0 });
    expect(s.cpuSeconds()).toBeGreaterThan(0);
  });
});
