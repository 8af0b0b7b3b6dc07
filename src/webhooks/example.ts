// `npm run webhooks:example -- --port <port> [--host <host>]`
import { parseArgs } from 'node:util';
import { addExampleHandlers } from './example-handlers.ts';
import { createWebhooksServer } from './server.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '7860' }, host: { type: 'string', default: '127.0.0.1' } },
  strict: true,
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer 0..65535, got ${values.port}`);
  process.exit(2);
}

const server = createWebhooksServer();
const routes = addExampleHandlers(server);
const { url, close } = await server.listen(port, values.host);
console.log(`Webhooks server listening on ${url}`);
console.log('Webhooks are set up and ready to use:');
for (const r of routes) console.log(`  - POST ${url}${r}`);
console.log(`Landing page with instructions: ${url}/`);

const stop = () => void close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
