// `npm run webhooks:example -- --port <port> [--host <host>] [--store <folder>]`
import { parseOrExit } from '../cli/command-line.ts';
import { EXAMPLE_USAGE, parseExampleArgs } from './example-args.ts';
import { addExampleHandlers } from './example-handlers.ts';
import { createWebhooksServer } from './server.ts';

const { port, host, store } = parseOrExit(() => parseExampleArgs(process.argv.slice(2)), EXAMPLE_USAGE);

const server = createWebhooksServer({ store });
const routes = addExampleHandlers(server);
const { url } = await server.listen(port, host);
console.log(`Webhooks server listening on ${url}`);
console.log('Webhooks are set up and ready to use:');
for (const r of routes) console.log(`  - POST ${url}${r}`);
console.log(`Landing page with instructions: ${url}/`);

// Stop accepting, give running handlers 10 s, then abort them: with a store they run again next start.
const stop = () => void server.shutdown(10_000).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
