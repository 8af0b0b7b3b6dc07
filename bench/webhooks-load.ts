// The load `npm run bench -- webhooks` puts on a receiving server: autocannon, the same payload with
// a unique repo.headSha per request (so each request is its own delivery), over loopback.
import { createRequire } from 'node:module';
import { samplePayload } from '../src/webhooks/sample-payload.ts';

export interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export const CONNECTIONS = 16;
/** Deliveries sent to a freshly started server before anything is counted (JIT, imports, sockets). */
export const WARM_UP = 1000;
export const BENCH_SECRET = 'bench-secret';

// autocannon replaces [<id>] with a unique id per request, which both handlers count.
const BODY = JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, headSha: '[<id>]' } }));

export function shoot(server: { url: string }, amount: number): Promise<AutocannonResult> {
  return autocannon({
    url: `${server.url}/webhooks/bench`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-webhook-secret': BENCH_SECRET },
    body: BODY,
    idReplacement: true,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    // autocannon reports at its next sample tick (1 s by default), which would round short runs up.
    sampleInt: 20,
  });
}
