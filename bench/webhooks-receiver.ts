// The receiving server under test in `npm run bench -- webhooks`, in a process of its own so the
// load generator does not share its event loop: createWebhooksServer with WEBHOOK_SECRET and one
// handler, `POST /webhooks/bench`, counting calls per repo.headSha (unique per request in the
// bench). Same stdin protocol as webhooks-peer.py: `reset` clears the counts, `stats` prints them.
// With WEBHOOKS_BENCH_STORE=<folder> it keeps a delivery store there (WEBHOOKS_BENCH_GROUP_COMMIT=0
// syncs each delivery on its own), runs up to 16 handlers at once, each taking WEBHOOKS_BENCH_HANDLER_MS,
// and `stats` adds `readyMs`: from creating the server (opening the store, resuming) to listening.
import { createInterface } from 'node:readline';
import { webhookPayloadSchema } from '../src/webhooks/payload-schema.ts';
import { createWebhooksServer } from '../src/webhooks/server.ts';

const calls = new Map<string, number>();
const store = process.env.WEBHOOKS_BENCH_STORE || undefined;
const handlerMs = Number(process.env.WEBHOOKS_BENCH_HANDLER_MS ?? 0);
const t0 = performance.now();
// Setup messages go to stderr: stdout carries only the protocol.
const server = createWebhooksServer({
  logger: { info: (m) => console.error(m), warn: (m) => console.error(m), error: (m) => console.error(m) },
  store,
  storeOptions: { groupCommit: process.env.WEBHOOKS_BENCH_GROUP_COMMIT !== '0' },
});
// The server itself only requires `event` and `repo` objects (newer hub payloads must get through);
// the peer's pydantic model checks every field of the v3 payload. So that both do the same work per
// delivery, this handler validates the whole v3 payload too, as a handler wanting typed fields would
// (refusing unknown fields, which pydantic ignores; the bench payload has none).
function handle(received: unknown) {
  const parsed = webhookPayloadSchema.safeParse(received);
  if (!parsed.success)
    return Response.json({ error: 'Not a v3 webhook payload.', issues: parsed.error.issues }, { status: 422 });
  const id = parsed.data.repo.headSha ?? '';
  calls.set(id, (calls.get(id) ?? 0) + 1);
  return { ok: true };
}
const slow = async (received: unknown) => {
  await new Promise((r) => setTimeout(r, handlerMs));
  return handle(received);
};
server.add(handlerMs ? slow : handle, 'bench', { concurrency: 16 });
const { url } = await server.listen(0, '127.0.0.1');
const readyMs = performance.now() - t0;
console.log(`listening ${url}`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'reset') {
    calls.clear();
    console.log('ok');
  } else if (line.trim() === 'stats') {
    let total = 0;
    for (const n of calls.values()) total += n;
    const counts = { calls: total, distinct: calls.size, duplicated: total - calls.size };
    console.log(JSON.stringify(store ? { ...counts, readyMs } : counts));
  }
}
process.exit(0);
