// `npm run webhooks:example` flags: argv in, options out, or a UsageError that names the flag.
import { parseCommandLine, portValue } from '../cli/command-line.ts';

export const EXAMPLE_USAGE = `usage: npm run webhooks:example -- [--port 7860] [--host 127.0.0.1]
  WEBHOOK_SECRET=<secret> makes every route require it in X-Webhook-Secret.`;

export function parseExampleArgs(argv: readonly string[]): { port: number; host: string } {
  const { values } = parseCommandLine(argv, {
    port: { type: 'string', default: '7860' },
    host: { type: 'string', default: '127.0.0.1' },
  });
  return { port: portValue(values.port), host: values.host };
}
