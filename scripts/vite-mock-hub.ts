// `npm run dev`: mounts the mock hub (with the demo checkpoints) inside Vite's dev server, so the
// dashboard's default hub URL (its own origin) answers as it does under `npm start`.
import { getRequestListener } from '@hono/node-server';
import type { Plugin } from 'vite';

const HUB_PATHS = /^\/(api\/|openapi\.json$|(datasets\/|spaces\/)?[^/]+\/[^/]+\/resolve\/)/;

export function mockHubPlugin(): Plugin {
  return {
    name: 'hub-console:mock-hub',
    apply: 'serve',
    async configureServer(server) {
      const { createDemoHub } = await import('./demo-hub.ts');
      const { specOnlyFromEnv } = await import('../src/mock-hub/cli-args.ts');
      const { hub } = await createDemoHub({ specOnly: specOnlyFromEnv(process.env) });
      const listener = getRequestListener(hub.app.fetch);
      server.middlewares.use((req, res, next) => {
        if (req.url && HUB_PATHS.test(req.url)) void listener(req, res);
        else next();
      });
      server.httpServer?.once('close', () => void hub.close());
    },
  };
}
