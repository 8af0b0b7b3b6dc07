// The servers `npm run bench -- webhooks` compares (the receiver and the peer in both its
// configurations) answer the same requests alike, and count what they deliver, so the rates
// compare like with like.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debianPython } from '../scripts/ensure-deps.mjs';
import { samplePayload } from '../src/webhooks/sample-payload.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const python = debianPython();
const imports = (modules: string) => spawnSync(python, ['-c', `import ${modules}`], { stdio: 'ignore' }).status === 0;
// The bench installs what is missing; the tests run what is there.
const available: Record<string, boolean> = {
  receiver: true,
  'peer-h11': imports('fastapi, uvicorn, pydantic'),
  peer: imports('fastapi, uvicorn, pydantic, uvloop, httptools'),
};
const SECRET = 'test-secret';
const file = (name: string) => fileURLToPath(new URL(name, import.meta.url));

const servers: ServerProcess[] = [];

beforeAll(async () => {
  servers.push(
    await startServerProcess('receiver', process.execPath, ['--import', 'tsx', file('./webhooks-receiver.ts')], {
      WEBHOOK_SECRET: SECRET,
    }),
  );
  // The two configurations the bench runs the peer in.
  if (available.peer)
    servers.push(
      await startServerProcess(
        'peer',
        python,
        [file('./webhooks-peer.py'), '--loop', 'uvloop', '--http', 'httptools'],
        { WEBHOOK_SECRET: SECRET },
      ),
    );
  if (available['peer-h11'])
    servers.push(
      await startServerProcess('peer-h11', python, [file('./webhooks-peer.py'), '--loop', 'asyncio', '--http', 'h11'], {
        WEBHOOK_SECRET: SECRET,
      }),
    );
});
afterAll(() => Promise.all(servers.map((s) => s.stop())));

const post = (s: ServerProcess, body: unknown, secret?: string) =>
  fetch(`${s.url}/webhooks/bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret === undefined ? {} : { 'x-webhook-secret': secret }) },
    body: JSON.stringify(body),
  }).then((r) => r.status);

const delivery = (headSha: string) => samplePayload({ repo: { ...samplePayload().repo, headSha } });

describe.each([['receiver'], ['peer'], ['peer-h11']])('bench server: %s', (name) => {
  const server = () => servers.find((s) => s.name === name)!;

  it.skipIf(!available[name])(
    'accepts the bench payload, refuses a missing or wrong secret and a non-payload',
    async () => {
      const s = server();
      await s.reset();
      expect(await post(s, delivery('a'), SECRET)).toBe(200);
      expect(await post(s, delivery('b'), SECRET)).toBe(200);
      expect(await post(s, delivery('b'), SECRET)).toBe(200);
      expect(await post(s, delivery('c'))).toBe(401);
      expect(await post(s, delivery('c'), 'wrong')).toBe(403);
      // Not a payload for either: no repo.
      const { repo: _repo, ...noRepo } = delivery('c');
      expect(await post(s, noRepo, SECRET)).toBe(422);
      expect(await s.stats()).toEqual({ calls: 3, distinct: 2, duplicated: 1 });
      await s.reset();
      expect(await s.stats()).toEqual({ calls: 0, distinct: 0, duplicated: 0 });
      expect(s.cpuSeconds()).toBeGreaterThan(0);
    },
  );

  // Same work per delivery: every field the peer's model checks, the receiver's bench handler checks too.
  it.skipIf(!available[name])(
    'refuses what does not fit the v3 payload, field by field, without counting it',
    async () => {
      const s = server();
      await s.reset();
      const base = delivery('d');
      const { private: _private, ...repoWithoutPrivate } = base.repo;
      const refused = [
        { ...base, repo: repoWithoutPrivate },
        { ...base, repo: { ...base.repo, name: '' } },
        { ...base, repo: { ...base.repo, owner: {} } },
        { ...base, event: { ...base.event, action: 'rename' } },
        { ...base, webhook: { ...base.webhook, version: 4 } },
        { ...base, updatedRefs: [{ ref: '' }] },
        { ...base, discussion: { id: 'x', num: -1 } },
      ];
      for (const body of refused) expect.soft(await post(s, body, SECRET), JSON.stringify(body)).toBe(422);
      expect(await post(s, base, SECRET)).toBe(200);
      expect(await s.stats()).toEqual({ calls: 1, distinct: 1, duplicated: 0 });
    },
  );
});
