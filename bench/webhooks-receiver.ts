// The receiving server under test in `npm run bench -- webhooks`, in a process of its own so the
// load generator does not share its event loop: createWebhooksServer with WEBHOOK_SECRET and one
// handler, `POST /webhooks/bench`, counting calls per repo.headSha (unique per request in the
// bench). Same stdin protocol as webhooks-peer.py: `reset` clears the counts, `stats` prints them.
import { createInterface } from 'node:readline';
import { webhookPayloadSchema } from '../src/webhooks/payload-schema.ts';
import { createWebhooksServer } from '../src/webhooks/server.ts';

const calls = new Map<string, number>();
// Setup messages go to stderr: stdout carries only the protocol.
const server = createWebhooksServer({
  logger: { info: (m) => console.error(m), warn: (m) => console.error(m), error: (m) => console.error(m) },
});
// The server itself only requires `event` and `repo` objects (newer hub payloads must get through);
// the peer's pydantic model checks every field of the v3 payload. So that both do the same work per
// delivery, this handler validates the whole v3 payload too, as a handler wanting typed fields would
// (refusing unknown fields, which pydantic ignores; the bench payload has none).
server.add((received) => {
  const parsed = webhookPayloadSchema.safeParse(received);
  if (!parsed.success)
    return Response.json({ error: 'Not a v3 webhook payload.', issues: parsed.error.issues }, { status: 422 });
  const id = parsed.data.repo.headSha ?? '';
  calls.set(id, (calls.get(id) ?? 0) + 1);
  return { ok: true };
}, 'bench');
const { url } = await server.listen(0, '127.0.0.1');
console.log(`listening ${url}`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'reset') {
    calls.clear();
    console.log('ok');
  } else if (line.trim() === 'stats') {
    let total = 0;
    for (const n of calls.values()) total += n;
    console.log(JSON.stringify({ calls: total, distinct: calls.size, duplicated: total - calls.size }));
  }
}
process.exit(0);
