// `npm run webhooks:example -- --port <port> [--host <host>]`
import { parseOrExit } from '../cli/command-line.ts';
import { EXAMPLE_USAGE, parseExampleArgs } from './example-args.ts';
import { addExampleHandlers } from './example-handlers.ts';
import { createWebhooksServer } from './server.ts';

const { port, host } = parseOrExit(() => parseExampleArgs(process.argv.slice(2)), EXAMPLE_USAGE);

const server = createWebhooksServer();
const routes = addExampleHandlers(server);
const { url, close } = await server.listen(port, host);
console.log(`Webhooks server listening on ${url}`);
console.log('Webhooks are set up and ready to use:');
for (const r of routes) console.log(`  - POST ${url}${r}`);
console.log(`Landing page with instructions: ${url}/`);

const stop = () => void close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
