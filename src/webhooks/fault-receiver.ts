// The receiver of the fault test (fault.test.ts), in a process of its own so the test can SIGKILL it:
// a stored server with one route, `POST /webhooks/work`, whose handler takes FAULT_MIN_MS..FAULT_MAX_MS,
// throws on the first attempt of every 7th delivery (repo name `fault/<n>`, n % 7 === 0), and
// otherwise appends `<deliveryId> <attempt>` to FAULT_EFFECTS once its work is done: the side effect
// a kill can cut between the work and the store's record of it.
import fs from 'node:fs';
import { createWebhooksServer } from './server.ts';

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const effects = env('FAULT_EFFECTS');
const min = Number(process.env.FAULT_MIN_MS ?? 50);
const max = Number(process.env.FAULT_MAX_MS ?? 500);
const quiet = { info() {}, warn() {}, error: (m: string) => console.error(m) };

const server = createWebhooksServer({
  store: env('FAULT_STORE'),
  logger: quiet,
  concurrency: 32,
  retry: { baseMs: 20, maxMs: 200 },
});
server.add(
  async (payload, { deliveryId, attempt, signal }) => {
    const n = Number(payload.repo.name?.split('/')[1]);
    if (n % 7 === 0 && attempt === 1) throw new Error(`planned failure of delivery ${n}`);
    await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
    signal.throwIfAborted();
    fs.appendFileSync(effects, `${deliveryId} ${attempt}\n`);
    return { n };
  },
  'work',
  { concurrency: 32 },
);
const { url } = await server.listen(0);
console.log(`listening ${url}`);
process.once('SIGTERM', () => void server.shutdown(5000).then(() => process.exit(0)));
