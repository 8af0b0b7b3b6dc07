// Receivers with a store for tests: each in a temporary folder, synced without fsync, retried fast,
// all shut down and removed by `cleanupStoredServers` (the test file's afterEach).
import { samplePayload } from './sample-payload.ts';
import { createWebhooksServer, type WebhooksServer, type WebhooksServerOptions } from './server.ts';
import { storeDirs } from './store/test-store-dir.ts';
import { recordingLogger } from './test-logger.ts';

const dirs = storeDirs();
const servers: WebhooksServer[] = [];

export function storedServers() {
  return {
    dirs,
    storedServer(dir: string, options: WebhooksServerOptions = {}): WebhooksServer {
      const server = createWebhooksServer({
        logger: recordingLogger(),
        store: dir,
        storeOptions: { fsync: false },
        retry: { baseMs: 1, maxMs: 5 },
        ...options,
      });
      servers.push(server);
      return server;
    },
    /** Stops tracking a server the test shut down itself. */
    forget(server: WebhooksServer): void {
      servers.splice(servers.indexOf(server), 1);
    },
  };
}

export async function cleanupStoredServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.shutdown(0)));
  dirs.cleanup();
}

export const body = (name = 'alice/tiny-model') =>
  JSON.stringify(samplePayload({ repo: { ...samplePayload().repo, name } }));

export function deliver(server: WebhooksServer, route: string, text = body(), headers: Record<string, string> = {}) {
  return server.app.request(`/webhooks/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'hub-test', ...headers },
    body: text,
  });
}

export const ackId = async (res: Response) => ((await res.json()) as { deliveryId: string }).deliveryId;
