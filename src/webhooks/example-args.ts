// `npm run webhooks:example` flags: argv in, options out, or a UsageError that names the flag.
import { parseCommandLine, portValue } from '../cli/command-line.ts';

export const EXAMPLE_USAGE = `usage: npm run webhooks:example -- [--port 7860] [--host 127.0.0.1] [--store <folder>]
  WEBHOOK_SECRET=<secret> makes every route require it in X-Webhook-Secret.
  --store (or WEBHOOKS_STORE=<folder>) keeps every delivery on disk before acknowledging it and
  runs the handlers in the background, with retries, surviving restarts.`;

export function parseExampleArgs(argv: readonly string[]): { port: number; host: string; store?: string } {
  const { values } = parseCommandLine(argv, {
    port: { type: 'string', default: '7860' },
    host: { type: 'string', default: '127.0.0.1' },
    store: { type: 'string' },
  });
  return { port: portValue(values.port), host: values.host, ...(values.store ? { store: values.store } : {}) };
}
